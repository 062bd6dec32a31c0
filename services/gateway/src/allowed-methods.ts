import type { Operation } from '@coin/contracts';

interface PathMethods {
  pattern: RegExp;
  isStatic: boolean;
  methods: Set<string>;
}

/**
 * The methods the contracts serve at a concrete path, for a 405's `Allow` header. A static path
 * (`/rules/create-rule`) shadows a parametric one (`/rules/:id`), as in the router itself.
 */
export function allowedMethodsOf(operations: readonly Operation[]): (path: string) => string[] {
  const byPath = new Map<string, PathMethods>();
  for (const op of operations) {
    if (!op.http) continue;
    const { path, method, alsoMethods = [] } = op.http;
    let entry = byPath.get(path);
    if (!entry) {
      const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+');
      entry = { pattern: new RegExp(`^${source}/?$`), isStatic: !path.includes(':'), methods: new Set() };
      byPath.set(path, entry);
    }
    for (const m of [method, ...alsoMethods]) entry.methods.add(m);
  }
  const entries = [...byPath.values()];
  return (path) => {
    const matches = entries.filter((e) => e.pattern.test(path));
    const chosen = matches.some((e) => e.isStatic) ? matches.filter((e) => e.isStatic) : matches;
    return [...new Set(chosen.flatMap((e) => [...e.methods]))].sort();
  };
}
