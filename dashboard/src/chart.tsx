/** A bar chart in SVG (no inline styles: the page's CSP allows none), with a table for screen readers. */
export function BarChart(props: { title: string; bars: { label: string; value: number }[]; unit: string }) {
  const max = Math.max(1, ...props.bars.map((b) => b.value));
  const width = 600;
  const height = 160;
  const step = props.bars.length ? width / props.bars.length : width;
  return (
    <figure>
      <figcaption>{props.title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-label={props.title} class="chart">
        {props.bars.map((b, i) => {
          const h = (b.value / max) * height;
          return (
            <g key={b.label}>
              <rect x={i * step + 2} y={height - h} width={Math.max(1, step - 4)} height={h} class="bar">
                <title>{`${b.label}: ${b.value} ${props.unit}`}</title>
              </rect>
              {props.bars.length <= 12 && (
                <text x={i * step + step / 2} y={height + 14} text-anchor="middle" class="axis">
                  {b.label.slice(0, 8)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details>
        <summary>{props.title}: the figures</summary>
        <table>
          <tbody>
            {props.bars.map((b) => (
              <tr key={b.label}>
                <th scope="row">{b.label}</th>
                <td>
                  {b.value} {props.unit}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
