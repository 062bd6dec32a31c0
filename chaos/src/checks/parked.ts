import { connectBus } from '@coin/bus';
import { listParked } from '@coin/events';
import { type Books, QUEUES } from '../books.ts';
import { type CheckResult, check } from './check.ts';

/** Nothing parked: no job of any queue, no outbox row, no consumed event; each one listed with its reason. */
export async function parkedChecks(books: Books, env: NodeJS.ProcessEnv): Promise<CheckResult[]> {
  const problems: string[] = [];
  for (const q of QUEUES) {
    const rows = await books
      .query<{ id: string; last_error: string | null }>(
        q.service,
        `SELECT id::text, last_error FROM ${q.table} WHERE parked_at IS NOT NULL AND (${q.unfinished})`,
      )
      .catch((err: { code?: string }) => {
        if (err.code === '42P01') return [];
        throw err;
      });
    problems.push(...rows.map((r) => `${q.service} ${q.name} ${r.id}: ${r.last_error}`));
  }
  const nc = await connectBus(env.NATS_URL!, 'chaos-parked', env.NATS_NAMESPACE!);
  try {
    for await (const e of listParked(nc))
      problems.push(`event ${e.subject} parked by ${e.durable}: ${e.reason}`);
  } finally {
    await nc.close();
  }
  return [check('nothing parked or dead-lettered', `${problems.length} parked`, problems)];
}
