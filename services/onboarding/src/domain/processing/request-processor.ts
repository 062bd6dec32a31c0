import type { onboarding } from '@coin/contracts';
import { allowSlowStatements, boundQuery, type Database } from '@coin/db';
import type { OutboxRelay } from '@coin/events';
import { type JobQueue, startJobWorker } from '@coin/jobs';
import type { Logger } from '@coin/telemetry';
import { LRUCache } from 'lru-cache';
import type { OnboardingConfig } from '../../config.ts';
import { firstOccurrences, processChunk } from './process-chunk.ts';

type OnboardUser = onboarding.OnboardUser;

/** Onboard-users requests not yet processed; one partner's requests never take every worker slot. */
export const onboardingQueue: JobQueue = {
  name: 'onboarding',
  table: 'onboarding_requests',
  unfinished: "status = 'pending'",
  fairnessKey: 'partner_id',
};

export interface RequestProcessor {
  /** Hands a request this replica has just stored to its worker, users already in memory. */
  accept(request: { id: string; users: OnboardUser[] }): void;
  stop(): Promise<void>;
}

interface Loaded {
  users: OnboardUser[];
  repeatOf: Int32Array;
}

/**
 * Users of requests kept in memory between their chunks, at most this many in all: a request this
 * replica accepted but another finished (it took the job over) must not stay in memory for good,
 * and one evicted is simply read again.
 */
const USERS_IN_MEMORY = 300_000;

interface RequestRow {
  partner_id: string;
  next_index: number;
}

/**
 * Processes stored onboard-users requests through the `onboarding` job queue, one chunk per run: a
 * run that leaves users to do puts the request back behind the other due requests, so requests
 * take turns chunk by chunk and a partner's 3-user request is never queued behind another's
 * 100,000 users. A request's users stay in memory on the replica working on it (up to
 * USERS_IN_MEMORY), read back from the database by any other that takes it over after a crash.
 */
export function startRequestProcessor(deps: {
  db: Database;
  relay: OutboxRelay;
  log: Logger;
  config: OnboardingConfig;
}): RequestProcessor {
  const { db, relay, log, config } = deps;
  const loaded = new LRUCache<string, Loaded>({
    maxSize: USERS_IN_MEMORY,
    sizeCalculation: (entry) => Math.max(1, entry.users.length),
  });

  async function load(id: string): Promise<Loaded> {
    const hit = loaded.get(id);
    if (hit) return hit;
    const [row] = await boundQuery<{ users: OnboardUser[] }>(
      db.em.fork(),
      'SELECT users FROM onboarding_requests WHERE id = $1',
      [id],
    );
    const entry = { users: row.users, repeatOf: firstOccurrences(row.users) };
    loaded.set(id, entry);
    return entry;
  }

  const worker = startJobWorker<RequestRow>({
    db,
    log,
    service: 'onboarding',
    queue: onboardingQueue,
    columns: 'partner_id, next_index',
    concurrency: config.ONBOARDING_CONCURRENCY,
    perKeyConcurrency: 1,
    leaseMs: config.ONBOARDING_LEASE_MS,
    pollMs: config.ONBOARDING_POLL_MS,
    maxAttempts: config.ONBOARDING_MAX_ATTEMPTS,
    backoff: { baseMs: config.ONBOARDING_RETRY_BASE_MS, capMs: config.ONBOARDING_RETRY_MAX_MS },
    async run(job) {
      try {
        const { users, repeatOf } = await load(job.id);
        const request = { id: job.id, partnerId: job.partner_id };
        const start = job.next_index;
        const end = Math.min(start + config.ONBOARDING_CHUNK_SIZE, users.length);
        const moved = await db.em.fork().transactional(async (tx) => {
          // A chunk is bulk work: it may take up to its lease, not just a request's statement timeout.
          await allowSlowStatements(tx, config.ONBOARDING_LEASE_MS);
          return processChunk(tx, request, users, repeatOf, start, end);
        });
        relay.notify();
        if (moved && end < users.length) return 'again';
        loaded.delete(job.id);
        if (moved) log.info({ requestId: job.id, users: users.length }, 'onboarding request processed');
        return 'done';
      } catch (err) {
        // Read afresh on the next attempt: the failure may have come from what was read.
        loaded.delete(job.id);
        throw err;
      }
    },
  });

  return {
    accept(request) {
      loaded.set(request.id, { users: request.users, repeatOf: firstOccurrences(request.users) });
      worker.notify();
    },
    async stop() {
      await worker.stop();
      loaded.clear();
    },
  };
}
