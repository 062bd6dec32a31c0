import { randomUUID } from 'node:crypto';
import { type Dispatcher, Pool } from 'undici';

export interface LoadFigures {
  ok: number;
  errors: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
}

/** The q-quantile of ascending `sorted` (0 when empty). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/**
 * A closed-loop load: `clients` clients over one keep-alive pool, each sending the request `next`
 * gives it as soon as its previous one is answered, until `seconds` pass or `next` has no more.
 * A 200 counts (and its latency in ms is kept); anything else, or no answer, is an error.
 */
export async function closedLoop(
  url: string,
  clients: number,
  seconds: number,
  next: () => Dispatcher.RequestOptions | undefined,
): Promise<LoadFigures> {
  const pool = new Pool(url, { connections: clients });
  const latencies: number[] = [];
  let errors = 0;
  const began = performance.now();
  const until = began + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const request = next();
        if (!request) return;
        const t0 = performance.now();
        try {
          const res = await pool.request(request);
          await res.body.text();
          if (res.statusCode === 200) latencies.push(performance.now() - t0);
          else errors += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - began) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    ok: latencies.length,
    errors,
    seconds: elapsed,
    rate: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

/**
 * `clients` closed-loop clients sending partner → user transfers of 1.5 coins, each with a fresh
 * `Idempotency-Key`, to users picked at random.
 */
export function transfers(
  url: string,
  token: string,
  users: readonly string[],
  seconds: number,
  clients = 64,
): Promise<LoadFigures> {
  return closedLoop(url, clients, seconds, () => ({
    method: 'POST',
    path: '/api/v1/laas/coins/transfer-to-user-wallet',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({ userId: users[Math.floor(Math.random() * users.length)], coins: 1.5 }),
  }));
}
