import {
  EVENT_SUBJECTS,
  MAX_FAILURES_IN_EVENT,
  type OnboardingProcessedEvent,
  type onboarding,
  USERS_PER_ONBOARDED_EVENT,
  type UsersOnboardedEvent,
} from '@coin/contracts';

type OnboardUser = onboarding.OnboardUser;

import { allowSlowStatements, boundQuery, type Database, type EntityManager } from '@coin/db';
import { addToOutbox, type OutboxRelay } from '@coin/events';
import type { Logger } from '@coin/telemetry';
import type { OnboardingConfig } from '../config.ts';
import { storedUser, USER_COLUMNS, type UserRow } from './stored-user.ts';

/** A chunk inserts up to ONBOARDING_CHUNK_SIZE users of up to 16 KB each in one statement. */
const CHUNK_STATEMENT_TIMEOUT_MS = 60_000;

export const REASON_ALREADY_STORED = 'userId is already onboarded for this partner (uniqueness violation)';
export const reasonRepeated = (first: number) =>
  `userId appears more than once in this request (first at users[${first}])`;

interface ClaimedRequest {
  id: string;
  partnerId: string;
  nextIndex: number;
  /** Present when this replica accepted the request itself; otherwise read back from the database. */
  users?: OnboardUser[];
}

interface Failure {
  position: number;
  user_id: string;
  reason: string;
}

export interface RequestProcessor {
  /** Hands a request this replica has just stored (under its lease) straight to its own worker. */
  accept(request: { id: string; partnerId: string; users: OnboardUser[] }): void;
  stop(): Promise<void>;
}

/** For each user, the index of the first user of the request with the same userId, or -1. */
function firstOccurrences(users: readonly OnboardUser[]): Int32Array {
  const first = new Map<string, number>();
  const repeatOf = new Int32Array(users.length).fill(-1);
  for (let i = 0; i < users.length; i++) {
    const key = users[i].userId.toLowerCase();
    const seen = first.get(key);
    if (seen === undefined) first.set(key, i);
    else repeatOf[i] = seen;
  }
  return repeatOf;
}

/**
 * Processes stored onboard-users requests in chunks. Each chunk is one transaction that inserts its
 * users set-based, records its failures, writes its `usersOnboarded` events to the outbox and
 * advances the request's cursor; the last one also writes the `onboardingProcessed` event. A crash
 * loses at most the chunk in flight, which is redone from the cursor by whichever replica takes the
 * request over once its lease has expired: the event is written exactly once.
 */
export function startRequestProcessor(deps: {
  orm: Database;
  relay: OutboxRelay;
  log: Logger;
  config: OnboardingConfig;
}): RequestProcessor {
  const { orm, relay, log, config } = deps;
  const queue: ClaimedRequest[] = [];
  let stopped = false;
  let wake: (() => void) | undefined;

  async function claimAbandoned(): Promise<ClaimedRequest | undefined> {
    const [row] = await orm.em.fork().execute<{ id: string; partner_id: string; next_index: number }[]>(
      `UPDATE onboarding_requests SET lease_until = now() + ? * interval '1 millisecond'
        WHERE id = (SELECT id FROM onboarding_requests
                     WHERE status = 'pending' AND lease_until < now()
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, partner_id, next_index`,
      [config.ONBOARDING_LEASE_MS],
    );
    return row && { id: row.id, partnerId: row.partner_id, nextIndex: row.next_index };
  }

  async function loadUsers(id: string): Promise<OnboardUser[]> {
    const [row] = await orm.em
      .fork()
      .execute<{ users: OnboardUser[] }[]>('SELECT users FROM onboarding_requests WHERE id = ?', [id]);
    return row.users;
  }

  async function finish(tx: EntityManager, request: ClaimedRequest, usersCount: number): Promise<void> {
    const [{ failed_count }] = await tx.execute<{ failed_count: number }[]>(
      'SELECT failed_count FROM onboarding_requests WHERE id = ?',
      [request.id],
    );
    const first = await tx.execute<{ user_id: string; reason: string }[]>(
      'SELECT user_id, reason FROM onboarding_failures WHERE request_id = ? ORDER BY position LIMIT ?',
      [request.id, MAX_FAILURES_IN_EVENT],
    );
    const event: Omit<OnboardingProcessedEvent, 'eventId'> = {
      partnerId: request.partnerId,
      requestId: request.id,
      event: 'USER_ONBOARDING',
      status: 'success',
      failed: first.map((f) => ({ user: f.user_id, reason: f.reason })),
      failedCount: failed_count,
      usersCount,
    };
    await addToOutbox(tx, { subject: EVENT_SUBJECTS.onboardingProcessed, payload: event });
  }

  /** One chunk in one transaction; false when another replica has moved the request on. */
  async function processChunk(
    request: ClaimedRequest,
    users: readonly OnboardUser[],
    repeatOf: Int32Array,
    start: number,
    end: number,
  ): Promise<boolean> {
    return orm.em.fork().transactional(async (tx) => {
      await allowSlowStatements(tx, CHUNK_STATEMENT_TIMEOUT_MS);
      const [current] = await tx.execute<{ next_index: number }[]>(
        'SELECT next_index FROM onboarding_requests WHERE id = ? FOR UPDATE',
        [request.id],
      );
      if (current?.next_index !== start) return false;
      const failures: Failure[] = [];
      const fresh: OnboardUser[] = [];
      const freshPositions: number[] = [];
      for (let i = start; i < end; i++) {
        if (repeatOf[i] >= 0)
          failures.push({ position: i, user_id: users[i].userId, reason: reasonRepeated(repeatOf[i]) });
        else {
          fresh.push(users[i]);
          freshPositions.push(i);
        }
      }
      const inserted = fresh.length
        ? await boundQuery<UserRow>(
            tx,
            `INSERT INTO users (partner_id, user_id, user_data)
             SELECT $1, u."userId", u."userData"
               FROM jsonb_to_recordset($2::jsonb) AS u("userId" uuid, "userData" jsonb)
             ON CONFLICT (partner_id, user_id) DO NOTHING
             RETURNING ${USER_COLUMNS}`,
            [request.partnerId, JSON.stringify(fresh)],
          )
        : [];
      const stored = new Set(inserted.map((r) => r.user_id));
      fresh.forEach((u, k) => {
        if (!stored.has(u.userId.toLowerCase()))
          failures.push({ position: freshPositions[k], user_id: u.userId, reason: REASON_ALREADY_STORED });
      });
      if (failures.length) {
        await boundQuery(
          tx,
          `INSERT INTO onboarding_failures (request_id, position, user_id, reason)
           SELECT $1, f.position, f.user_id, f.reason
             FROM jsonb_to_recordset($2::jsonb) AS f(position int, user_id text, reason text)`,
          [request.id, JSON.stringify(failures)],
        );
      }
      for (let i = 0; i < inserted.length; i += USERS_PER_ONBOARDED_EVENT) {
        const event: Omit<UsersOnboardedEvent, 'eventId'> = {
          partnerId: request.partnerId,
          requestId: request.id,
          users: inserted.slice(i, i + USERS_PER_ONBOARDED_EVENT).map(storedUser),
        };
        await addToOutbox(tx, { subject: EVENT_SUBJECTS.usersOnboarded, payload: event });
      }
      const done = end === users.length;
      await tx.execute(
        `UPDATE onboarding_requests
            SET next_index = ?, failed_count = failed_count + ?,
                lease_until = now() + ? * interval '1 millisecond',
                status = ?, completed_at = CASE WHEN ? THEN now() END,
                users = CASE WHEN ? THEN NULL ELSE users END
          WHERE id = ?`,
        [end, failures.length, config.ONBOARDING_LEASE_MS, done ? 'done' : 'pending', done, done, request.id],
      );
      if (done) await finish(tx, request, users.length);
      return true;
    });
  }

  async function process(request: ClaimedRequest): Promise<void> {
    const users = request.users ?? (await loadUsers(request.id));
    const repeatOf = firstOccurrences(users);
    for (let start = request.nextIndex; start < users.length; ) {
      if (stopped) {
        // Hand the rest to another replica at once instead of after the lease.
        await orm.em
          .fork()
          .execute('UPDATE onboarding_requests SET lease_until = now() WHERE id = ?', [request.id]);
        return;
      }
      const end = Math.min(start + config.ONBOARDING_CHUNK_SIZE, users.length);
      if (!(await processChunk(request, users, repeatOf, start, end))) return;
      relay.notify();
      start = end;
    }
    log.info({ requestId: request.id, users: users.length }, 'onboarding request processed');
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        const next = queue.shift() ?? (await claimAbandoned());
        if (next) {
          await process(next);
          continue;
        }
      } catch (err) {
        log.error({ err }, 'onboarding request processing failed; it will be taken up again');
      }
      if (stopped || queue.length) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.ONBOARDING_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    accept(request) {
      queue.push({ ...request, nextIndex: 0 });
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
