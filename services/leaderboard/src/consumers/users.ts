import { EVENT_SUBJECTS, usersOnboardedEvent } from '@coin/contracts';
import { applyOnce, type ConsumerOptions } from '@coin/events';
import type { LeaderboardDeps } from '../deps.ts';
import { saveUsers } from '../users.ts';
import { dropMalformed, RETRY_DELIVERIES } from './malformed.ts';

const DURABLE = 'leaderboard-users';

/** Keeps the stored users of onboarding that the points board shows (see users.ts). */
export function usersConsumer(deps: LeaderboardDeps): Omit<ConsumerOptions<unknown>, 'nc' | 'log'> {
  return {
    durable: DURABLE,
    subject: EVENT_SUBJECTS.usersOnboarded,
    concurrency: deps.config.LEADERBOARD_CONCURRENCY,
    maxDeliver: RETRY_DELIVERIES,
    ackWaitMs: deps.config.LEADERBOARD_ACK_WAIT_MS,
    handle: async (raw, msg) => {
      const parsed = usersOnboardedEvent.safeParse(raw);
      if (!parsed.success) return dropMalformed(deps.log, msg, parsed.error);
      const event = parsed.data;
      await applyOnce(deps.orm.em.fork(), DURABLE, event.eventId, async (tx) => {
        await saveUsers(tx, event.partnerId, event.users);
      });
    },
  };
}
