import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
