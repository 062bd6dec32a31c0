import type { Operation } from '@coin/contracts';
import { counter } from '@coin/telemetry';
import { LRUCache } from 'lru-cache';

const reads = counter({
  name: 'coin_gateway_answer_cache_reads_total',
  help:
    'Reads of operations whose answer may be served from the gateway cache, by operation and result ' +
    "(hit: a stored answer; coalesced: waited for another request's bus call; miss: asked the service)",
  labelNames: ['operation', 'result'] as const,
});

/** How lru-cache's fetch found the key, as the metric counts it (a stale entry is asked again: a miss). */
function resultOf(status: LRUCache.Status<string, Uint8Array, Ask>): 'hit' | 'coalesced' | 'miss' {
  return status.fetch === 'hit' ? 'hit' : status.fetch === 'inflight' ? 'coalesced' : 'miss';
}

/** What identifies one answer: the operation, the calling partner and the validated request. */
interface CachedRead {
  op: Operation;
  partnerId: string;
  query: unknown;
  params: unknown;
}

type Ask = () => Promise<Uint8Array>;

/**
 * The operation's `freshForMs`, after checking it is declared where a cached answer cannot leak or
 * go wrong: a partner-scoped GET without a body, whose answer the key below determines entirely.
 */
export function freshnessOf(op: Operation): number | undefined {
  const http = op.http;
  if (http?.freshForMs === undefined) return undefined;
  if (http.method !== 'GET' || http.alsoMethods || http.auth !== 'partner' || op.schemas.body)
    throw new Error(`${op.name}: freshForMs is only for partner-scoped GETs without a body`);
  return http.freshForMs;
}

/** JSON with every object's keys sorted, so equal requests give equal keys however they were written. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Service answers kept for their operation's `freshForMs`, bounded to `maxBytes`. Concurrent misses
 * of one key make one bus request and all get its answer; a failed request is not kept (every
 * caller waiting on it gets its error, and the next read asks again).
 */
export function answerCache(maxBytes: number) {
  const answers = new LRUCache<string, Uint8Array, Ask>({
    maxSize: maxBytes,
    sizeCalculation: (json, key) => json.byteLength + key.length,
    fetchMethod: (_key, _stale, { context: ask }) => ask(),
    // An answer still in flight when newer ones push it out still reaches the requests waiting on it.
    ignoreFetchAbort: true,
  });

  return async function cachedAnswer(read: CachedRead, freshForMs: number, ask: Ask): Promise<Uint8Array> {
    const key = canonicalJson([read.partnerId, read.op.name, read.query, read.params]);
    const status: LRUCache.Status<string, Uint8Array, Ask> = {};
    const answer = answers.fetch(key, { ttl: freshForMs, context: ask, status });
    reads.inc({ operation: read.op.name, result: resultOf(status) });
    return (await answer)!;
  };
}
