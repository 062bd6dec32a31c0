import {
  EVENT_SUBJECTS,
  MAX_FAILURES_IN_EVENT,
  type OnboardingProcessedEvent,
  type onboarding,
} from '@coin/contracts';
import { boundQuery, type EntityManager } from '@coin/db';
import { addToOutbox } from '@coin/events';
import { usersOnboardedEvents } from './onboarded-events.ts';
import { storedUser, USER_COLUMNS, type UserRow } from './stored-user.ts';

type OnboardUser = onboarding.OnboardUser;

export const REASON_ALREADY_STORED = 'userId is already onboarded for this partner (uniqueness violation)';
const reasonRepeated = (first: number) =>
  `userId appears more than once in this request (first at users[${first}])`;

export interface ChunkRequest {
  id: string;
  partnerId: string;
}

interface Failure {
  position: number;
  user_id: string;
  reason: string;
}

/** For each user, the index of the first user of the request with the same userId, or -1. */
export function firstOccurrences(users: readonly OnboardUser[]): Int32Array {
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

async function finish(tx: EntityManager, request: ChunkRequest, usersCount: number): Promise<void> {
  const [{ failed_count }] = await boundQuery<{ failed_count: number }>(
    tx,
    'SELECT failed_count FROM onboarding_requests WHERE id = $1',
    [request.id],
  );
  const first = await boundQuery<{ user_id: string; reason: string }>(
    tx,
    'SELECT user_id, reason FROM onboarding_failures WHERE request_id = $1 ORDER BY position LIMIT $2',
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

/** Users of the chunk not repeated earlier in the request, and the failures of those that are. */
function splitRepeats(users: readonly OnboardUser[], repeatOf: Int32Array, start: number, end: number) {
  const failures: Failure[] = [];
  const fresh: OnboardUser[] = [];
  const positions: number[] = [];
  for (let i = start; i < end; i++) {
    if (repeatOf[i] >= 0)
      failures.push({ position: i, user_id: users[i].userId, reason: reasonRepeated(repeatOf[i]) });
    else {
      fresh.push(users[i]);
      positions.push(i);
    }
  }
  return { failures, fresh, positions };
}

/**
 * One chunk, in the caller's transaction: inserts its users set-based, records its failures, writes
 * its `usersOnboarded` events to the outbox and advances the request's cursor; the last one also
 * writes the `onboardingProcessed` event. A crash loses at most the chunk in flight, redone from the
 * cursor, so the event is written exactly once. False when another worker has moved the request on.
 */
export async function processChunk(
  tx: EntityManager,
  request: ChunkRequest,
  users: readonly OnboardUser[],
  repeatOf: Int32Array,
  start: number,
  end: number,
): Promise<boolean> {
  const [current] = await boundQuery<{ next_index: number }>(
    tx,
    'SELECT next_index FROM onboarding_requests WHERE id = $1 FOR UPDATE',
    [request.id],
  );
  if (current?.next_index !== start) return false;
  const { failures, fresh, positions } = splitRepeats(users, repeatOf, start, end);
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
      failures.push({ position: positions[k], user_id: u.userId, reason: REASON_ALREADY_STORED });
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
  for (const event of usersOnboardedEvents(request.partnerId, request.id, inserted.map(storedUser)))
    await addToOutbox(tx, { subject: EVENT_SUBJECTS.usersOnboarded, payload: event });
  const done = end === users.length;
  await boundQuery(
    tx,
    `UPDATE onboarding_requests
        SET next_index = $2, failed_count = failed_count + $3,
            status = CASE WHEN $4::boolean THEN 'done' ELSE 'pending' END,
            completed_at = CASE WHEN $4::boolean THEN now() END,
            users = CASE WHEN $4::boolean THEN NULL ELSE users END
      WHERE id = $1`,
    [request.id, end, failures.length, done],
  );
  if (done) await finish(tx, request, users.length);
  return true;
}
