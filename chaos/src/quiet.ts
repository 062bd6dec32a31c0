import { connectBus, namesOf } from '@coin/bus';
import { jetstreamManager } from '@nats-io/jetstream';
import { type Books, readQueues } from './books.ts';

/** What is still moving: unfinished jobs per queue and events not yet acknowledged per consumer. */
async function stillMoving(books: Books, env: NodeJS.ProcessEnv): Promise<string[]> {
  const busy = (await readQueues(books))
    .filter((q) => q.pending > 0)
    .map((q) => `${q.service} ${q.queue}: ${q.pending}`);
  const nc = await connectBus(env.NATS_URL!, 'chaos-quiet', env.NATS_NAMESPACE!);
  try {
    const jsm = await jetstreamManager(nc);
    for await (const c of jsm.consumers.list(namesOf(nc).stream)) {
      const behind = c.num_pending + c.num_ack_pending;
      if (behind > 0) busy.push(`consumer ${c.name}: ${behind}`);
    }
  } finally {
    await nc.close();
  }
  return busy;
}

/**
 * Waits until the system is quiet: outboxes and job queues empty (parked work aside: the checks
 * report it), every consumer caught up. Returns how long it took, or what was still moving.
 */
export async function waitForQuiet(
  books: Books,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ ms: number; moving: string[] }> {
  const began = Date.now();
  let moving: string[] = [];
  while (Date.now() - began < timeoutMs) {
    moving = await stillMoving(books, env).catch((err: Error) => [`reading: ${err.message}`]);
    if (moving.length === 0) return { ms: Date.now() - began, moving };
    await new Promise((r) => setTimeout(r, 500));
  }
  return { ms: Date.now() - began, moving };
}
