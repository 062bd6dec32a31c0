import type { Database, EntityManager } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import { type PollLoop, startPollLoop } from './poll-loop.ts';

/** Rows deleted per statement, unless a purge says otherwise. */
const DEFAULT_CHUNK = 5000;

/**
 * The one way a table is kept to its retention: `deleteSome` deletes up to `chunk` expired rows in
 * one statement and says how many. It runs at start, again at once while chunks come back full, and
 * otherwise every `intervalMs`, so a backlog (after an upgrade, an outage, a burst) goes in short
 * transactions, never in one DELETE long enough for the statement timeout to cancel it every time.
 */
export function startPurge(opts: {
  /** What is deleted, for the logs: "published outbox rows". */
  what: string;
  orm: Database;
  log: Logger;
  deleteSome: (em: EntityManager, chunk: number) => Promise<number>;
  intervalMs: number;
  chunk?: number;
  onDeleted?: (count: number) => void;
}): PollLoop {
  const chunk = opts.chunk ?? DEFAULT_CHUNK;
  return startPollLoop({
    once: async () => {
      const deleted = await opts.deleteSome(opts.orm.em.fork(), chunk);
      if (deleted > 0) {
        opts.onDeleted?.(deleted);
        opts.log.debug({ deleted }, `${opts.what} purged`);
      }
      return deleted === chunk ? deleted : 0;
    },
    intervalMs: opts.intervalMs,
    onError: (err) => opts.log.warn({ err }, `purge of ${opts.what} failed; will retry`),
  });
}
