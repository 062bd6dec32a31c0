import { readFile } from 'node:fs/promises';
import { allOperations, bodyLimitOf } from '@coin/contracts';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const INGRESS = new URL('../../k8s/overlays/production/ingress.yaml', import.meta.url);

interface IngressPath {
  path: string;
  pathType: 'Exact' | 'Prefix';
  bytes: number;
}

/** nginx's size notation: `64k`, `32m`, or bytes. */
function bytesOf(size: string): number {
  const m = /^(\d+)([km]?)$/i.exec(size.trim());
  if (!m) throw new Error(`not a size: ${size}`);
  return Number(m[1]) * { '': 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase() as '' | 'k' | 'm'];
}

async function ingressPaths(): Promise<IngressPath[]> {
  const docs = parseAllDocuments(await readFile(INGRESS, 'utf8')).map((d) => d.toJSON());
  return docs.flatMap((ing) => {
    const bytes = bytesOf(ing.metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size']);
    return ing.spec.rules.flatMap(
      (r: { http: { paths: { path: string; pathType: IngressPath['pathType'] }[] } }) =>
        r.http.paths.map((p) => ({ path: p.path, pathType: p.pathType, bytes })),
    );
  });
}

/** The path nginx picks for a request path: an exact match, else the longest prefix. */
function routeOf(paths: IngressPath[], path: string): IngressPath | undefined {
  const exact = paths.find((p) => p.pathType === 'Exact' && p.path === path);
  if (exact) return exact;
  return paths
    .filter((p) => p.pathType === 'Prefix' && path.startsWith(p.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

describe("the production ingress's body limits", () => {
  it("let each operation's body through and nothing larger, per path", async () => {
    const paths = await ingressPaths();
    const largest = new Map<IngressPath, number>();
    for (const op of allOperations) {
      if (!op.http) continue;
      const route = routeOf(paths, op.http.path.replace(/:\w+/g, 'x'));
      expect(route, op.name).toBeDefined();
      expect(route!.bytes, `${op.name} takes up to ${bodyLimitOf(op)} bytes`).toBeGreaterThanOrEqual(
        bodyLimitOf(op),
      );
      largest.set(route!, Math.max(largest.get(route!) ?? 0, bodyLimitOf(op)));
    }
    // No path lets through more than the largest body of the operations it serves.
    for (const [route, bytes] of largest) expect(route.bytes, route.path).toBe(bytes);
    expect(routeOf(paths, '/api/v1/no-such-route')!.bytes).toBe(64 * 1024);
  });
});
