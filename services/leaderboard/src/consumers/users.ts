import {
  EVENT_CONSUMERS,
  EVENT_SUBJECTS,
  type onboarding,
  type UsersOnboardedEvent,
  usersOnboardedEvent,
} from '@coin/contracts';
import { applyOnceEach, keepAppliedId, type RunningConsumer, startConsumer } from '@coin/events';
import type { LeaderboardDeps } from '../deps.ts';
import { saveUsers } from '../domain/users.ts';
import { consumerSettings } from './record-standing.ts';

type StoredUser = onboarding.StoredUser;

const DURABLE = EVENT_CONSUMERS.leaderboardUsers.durable;

/** Events stored in one transaction: a large onboarding request's many events cost few commits. */
const BATCH = 32;

/**
 * The users of several events by partner, one copy per user (the newest): one upsert statement
 * may not touch a row twice.
 */
function latestUsers(events: readonly UsersOnboardedEvent[]): Map<string, Map<string, StoredUser>> {
  const byPartner = new Map<string, Map<string, StoredUser>>();
  for (const event of events) {
    const users = byPartner.get(event.partnerId) ?? new Map<string, StoredUser>();
    byPartner.set(event.partnerId, users);
    for (const user of event.users) {
      const seen = users.get(user.userId);
      if (!seen || seen.updatedAt <= user.updatedAt) users.set(user.userId, user);
    }
  }
  return byPartner;
}

/** Keeps the stored users of onboarding that the points board shows (see users.ts). */
export function consumeUsers(deps: LeaderboardDeps): Promise<RunningConsumer> {
  return startConsumer({
    ...consumerSettings(deps),
    durable: DURABLE,
    subject: EVENT_SUBJECTS.usersOnboarded,
    schema: usersOnboardedEvent,
    beforePark: keepAppliedId(deps.db, [DURABLE]),
    batch: { size: BATCH },
    handleBatch: async (events) => {
      await applyOnceEach(deps.db.em.fork(), DURABLE, events, async (tx, fresh) => {
        for (const [partnerId, users] of latestUsers(fresh))
          await saveUsers(tx, partnerId, [...users.values()]);
      });
    },
  });
}
