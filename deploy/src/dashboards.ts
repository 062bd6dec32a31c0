import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'yaml';
import type { Problem } from './kubernetes.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/**
 * Every `coin_*` metric the code declares: a quoted `'coin_…'` in its sources, as a counter, gauge or
 * histogram `name:` or as the name handed to a helper that declares one (scrapedGauges, backlogGauges).
 */
export function declaredMetrics(root: string): Set<string> {
  const names = new Set<string>();
  for (const top of ['libs', 'services']) {
    for (const pkg of readdirSync(join(root, top))) {
      let files: string[];
      try {
        files = sourceFiles(join(root, top, pkg, 'src'));
      } catch {
        continue;
      }
      for (const file of files)
        for (const m of readFileSync(file, 'utf8').matchAll(/['"`](coin_[a-z0-9_]+)['"`]/g)) names.add(m[1]);
    }
  }
  return names;
}

/** A dashboard panel on a metric nobody exports shows nothing, silently: each name must exist. */
export function checkDashboards(root: string, dir = join(root, 'deploy', 'grafana')): Problem[] {
  const declared = declaredMetrics(root);
  const problems: Problem[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const source = relative(root, join(dir, file));
    const text = readFileSync(join(dir, file), 'utf8');
    try {
      JSON.parse(text);
    } catch (err) {
      problems.push({ source, resource: source, message: (err as Error).message });
      continue;
    }
    for (const m of new Set(text.match(/coin_[a-z0-9_]+/g) ?? [])) {
      const metric = m.replace(/_(bucket|count|sum)$/, '');
      if (!declared.has(metric))
        problems.push({ source, resource: m, message: 'no code declares this metric' });
    }
  }
  return problems;
}

export const DASHBOARD_CONFIGMAP = 'k8s/overlays/production/grafana-dashboard.yaml';

/**
 * The production overlay's dashboards: one ConfigMap with the `grafana_dashboard` label (the label
 * Grafana's dashboard sidecar provisions from) holding every deploy/grafana/*.json as it is.
 */
export function renderDashboardConfigMap(root: string, dir = join(root, 'deploy', 'grafana')): string {
  const data = Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );
  const header =
    '# Generated from deploy/grafana/*.json by `npm run dashboards:sync`; edit those files, not this one.\n' +
    '# Grafana provisions it through its dashboard sidecar (label grafana_dashboard; the sidecar must\n' +
    '# watch this namespace): docs/operating/observability.md.\n';
  const doc = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'coin-rewards-dashboards',
      labels: { grafana_dashboard: '1' },
      annotations: { grafana_folder: 'Coin rewards' },
    },
    data,
  };
  return header + stringify(doc, { lineWidth: 0 });
}

/** The overlay's dashboard ConfigMap is the one deploy/grafana renders to (refuses a stale copy). */
export function checkDashboardConfigMap(root: string): Problem[] {
  const file = join(root, DASHBOARD_CONFIGMAP);
  const stale = [
    {
      source: DASHBOARD_CONFIGMAP,
      resource: 'ConfigMap',
      message: 'differs from deploy/grafana: run npm run dashboards:sync',
    },
  ];
  if (!existsSync(file)) return stale;
  const deployed = parse(readFileSync(file, 'utf8')) as { data?: unknown };
  const wanted = parse(renderDashboardConfigMap(root)) as { data?: unknown };
  return isDeepStrictEqual(deployed.data, wanted.data) ? [] : stale;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(import.meta.url), '../../..');
  if (process.argv.includes('--write')) {
    writeFileSync(join(root, DASHBOARD_CONFIGMAP), renderDashboardConfigMap(root));
    console.log(`wrote ${DASHBOARD_CONFIGMAP}`);
  }
}
