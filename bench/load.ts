import { randomUUID } from 'node:crypto';
import { HttpConnection, type LoadRequest } from './http-connection.ts';

export interface LoadFigures {
  ok: number;
  errors: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  /** Where the slowest 1 % came from (`tailOf`). */
  tail: Tail;
}

/**
 * The requests slower than the p99, by the half-second of the run in which they were sent: the share
 * of them in the worst tenth of those half-seconds. About 0.1 when the slowest requests are spread
 * over the run (the p99 follows the load); near 1 when a few stalls, with every client waiting at
 * once, make the p99 (a commit that waits for the disk, a pause of one process).
 */
export interface Tail {
  share: number;
  windows: number;
  of: number;
  /** When those half-seconds began, in seconds from the run's start, in order. */
  at: number[];
}

const TAIL_WINDOW_MS = 500;

function tailOf(samples: readonly { at: number; ms: number }[], p99: number, seconds: number): Tail {
  const of = Math.max(1, Math.ceil((seconds * 1000) / TAIL_WINDOW_MS));
  const counts = new Array<number>(of).fill(0);
  let slow = 0;
  for (const s of samples) {
    if (s.ms <= p99) continue;
    counts[Math.min(of - 1, Math.floor(s.at / TAIL_WINDOW_MS))] += 1;
    slow += 1;
  }
  const windows = Math.max(1, Math.round(of / 10));
  const worst = counts
    .map((n, i) => ({ n, i }))
    .sort((a, b) => b.n - a.n)
    .slice(0, windows);
  const inWorst = worst.reduce((sum, w) => sum + w.n, 0);
  return {
    share: slow ? inWorst / slow : 0,
    windows,
    of,
    at: worst.map((w) => (w.i * TAIL_WINDOW_MS) / 1000).sort((a, b) => a - b),
  };
}

/**
 * "the slowest 1 %: 71 % in the worst 4 of 40 half-seconds (at 0.0, 0.5, 9.5, 17.0 s)": stalls only
 * at a window's start point at a warm-up too short, stalls spread over it at the stack's steady state.
 */
export const tailLine = (t: Tail) =>
  `the slowest 1 %: ${(t.share * 100).toFixed(0)} % in the worst ${t.windows} of ${t.of} half-seconds ` +
  `(at ${t.at.map((s) => s.toFixed(1)).join(', ')} s)`;

/** The q-quantile of ascending `sorted` (0 when empty). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/**
 * A closed-loop load: `clients` clients, each on a keep-alive connection of its own, each sending the
 * request `next` gives it as soon as its previous one is answered, until `seconds` pass or `next`
 * has no more. A 200 counts (and its latency in ms is kept); anything else, or no answer, is an
 * error, and a connection that failed is opened again.
 */
export async function closedLoop(
  url: string,
  clients: number,
  seconds: number,
  next: () => LoadRequest | undefined,
): Promise<LoadFigures> {
  const { hostname, port } = new URL(url);
  const samples: { at: number; ms: number }[] = [];
  let errors = 0;
  const began = performance.now();
  const until = began + seconds * 1000;
  /** A connection, once the server takes one; each refusal counts as an error. */
  const open = async (): Promise<HttpConnection> => {
    for (;;) {
      try {
        return await HttpConnection.open(hostname, Number(port));
      } catch (err) {
        errors += 1;
        if (performance.now() >= until) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  await Promise.all(
    Array.from({ length: clients }, async () => {
      let connection = await open();
      while (performance.now() < until) {
        const request = next();
        if (!request) break;
        const t0 = performance.now();
        try {
          if ((await connection.send(request)) === 200)
            samples.push({ at: t0 - began, ms: performance.now() - t0 });
          else errors += 1;
        } catch {
          errors += 1;
          connection.close();
          connection = await open();
        }
      }
      connection.close();
    }),
  );
  const elapsed = (performance.now() - began) / 1000;
  const latencies = samples.map((s) => s.ms).sort((a, b) => a - b);
  const p99 = quantile(latencies, 0.99);
  return {
    ok: latencies.length,
    errors,
    seconds: elapsed,
    rate: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99,
    tail: tailOf(samples, p99, elapsed),
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
