import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartOptions,
  LinearScale,
  type Plugin,
  Tooltip,
} from 'chart.js';
import { useEffect, useId, useRef } from 'preact/hooks';

// Only what a bar chart draws, so the bundle carries no other chart type
// (docs/decisions/2026-11-28-dashboard-charts.md).
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);
Chart.defaults.font.family = 'system-ui, sans-serif';
Chart.defaults.color = '#1b1f24';

export interface Bar {
  label: string;
  value: number;
}

/** Each non-zero bar's value, written at its end: readable without hovering. */
const values: Plugin<'bar'> = {
  id: 'values',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    const horizontal = chart.options.indexAxis === 'y';
    ctx.save();
    ctx.fillStyle = '#1b1f24';
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = horizontal ? 'left' : 'center';
    ctx.textBaseline = horizontal ? 'middle' : 'bottom';
    const data = chart.data.datasets[0].data as number[];
    chart.getDatasetMeta(0).data.forEach((bar, i) => {
      if (!data[i]) return;
      const { x, y } = bar.getProps(['x', 'y'], true);
      ctx.fillText(String(data[i]), horizontal ? x + 4 : x, horizontal ? y : y - 2);
    });
    ctx.restore();
  },
};

function options(props: ChartProps): ChartOptions<'bar'> {
  const horizontal = props.horizontal === true;
  const [indexAxis, valueAxis] = horizontal ? (['y', 'x'] as const) : (['x', 'y'] as const);
  return {
    indexAxis,
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    layout: { padding: { top: 16, right: 24 } },
    plugins: {
      tooltip: { callbacks: { label: (c) => `${c.formattedValue} ${props.unit}` } },
    },
    scales: {
      [indexAxis]: { title: { display: true, text: props.categoryTitle }, grid: { display: false } },
      [valueAxis]: {
        beginAtZero: true,
        title: { display: true, text: props.valueTitle },
        ticks: { precision: 0 },
      },
    },
  };
}

interface ChartProps {
  title: string;
  bars: Bar[];
  /** Unit of a value, in the tooltip and the table: "coins". */
  unit: string;
  categoryTitle: string;
  valueTitle: string;
  /** Shown instead of the chart when every value is 0. */
  empty: string;
  horizontal?: boolean;
}

/**
 * A bar chart (Chart.js on a canvas) with axes, values and tooltips, and the same figures as a table
 * for screen readers and keyboard users, who cannot hover a canvas.
 */
export function BarChart(props: ChartProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const id = useId();
  const shown = props.bars.some((b) => b.value !== 0);
  const key = JSON.stringify([props.bars, props.unit]);
  useEffect(() => {
    if (!shown || !canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: props.bars.map((b) => b.label),
        datasets: [
          {
            label: props.unit,
            data: props.bars.map((b) => b.value),
            backgroundColor: '#1d4f91',
            maxBarThickness: 32,
          },
        ],
      },
      options: options(props),
      plugins: [values],
    });
    return () => chart.destroy();
  }, [key, shown]);
  return (
    <figure class="chart" aria-labelledby={id}>
      <figcaption id={id}>{props.title}</figcaption>
      {shown ? (
        <div class={props.horizontal ? 'chart-box tall' : 'chart-box'}>
          <canvas ref={canvas} role="img" aria-label={`${props.title}: the table below gives its figures`} />
        </div>
      ) : (
        <p class="empty">{props.empty}</p>
      )}
      {shown && (
        <details>
          <summary>{props.title}: the figures</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">{props.categoryTitle}</th>
                <th scope="col">{props.valueTitle}</th>
              </tr>
            </thead>
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
      )}
    </figure>
  );
}
