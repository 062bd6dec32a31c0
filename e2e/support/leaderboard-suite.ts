import { randomUUID } from 'node:crypto';
import type { Stack } from '@coin/testing';
import { afterAll, beforeAll } from 'vitest';
import { EventPublisher } from './leaderboard.ts';
import type { RegisteredPartner } from './partners.ts';
import { stackWith } from './stack.ts';

export const COIN_BOARD = '/api/v1/coins/partner/ep-leaderboard';
export const POINTS_BOARD = '/api/v1/laas/leaderboard/new';

export let stack: Stack;
export let events: EventPublisher;

export function coinBoard(p: RegisteredPartner, query: Record<string, string | number | undefined>) {
  return stack.api.get(COIN_BOARD, { token: p.accessToken, query: { type: 'earner', ...query } });
}

/** Five users of one partner in March 2024, with a tie on 150.00 and a tie at the same instant. */
export async function seedMarch(p: RegisteredPartner) {
  const [top, early, late, sameA, sameB] = Array.from({ length: 5 }, () => randomUUID());
  const [lowId, highId] = [sameA, sameB].sort();
  await events.credit(p.partnerId, top, '100.25', '2024-03-02T10:00:00.000Z');
  await events.credit(p.partnerId, top, '199.75', '2024-03-03T10:00:00.000Z');
  // `late` reaches 150.00 on the 6th, `early` on the 5th: early ranks first although published later.
  await events.credit(p.partnerId, late, '150', '2024-03-06T00:00:00.000Z');
  await events.credit(p.partnerId, early, '150.00', '2024-03-05T00:00:00.000Z');
  // Same amount at the same instant: the lower userId ranks first.
  await events.credit(p.partnerId, highId, '20.5', '2024-03-07T00:00:00.000Z');
  await events.credit(p.partnerId, lowId, '20.50', '2024-03-07T00:00:00.000Z');
  // Debits never count, and neighbouring months are other boards.
  await events.credit(p.partnerId, top, '999', '2024-03-08T00:00:00.000Z', 'DE');
  await events.credit(p.partnerId, late, '7', '2024-02-29T23:59:59.999Z');
  await events.credit(p.partnerId, late, '9', '2024-04-01T00:00:00.000Z');
  return { top, early, late, lowId, highId };
}

/** Registers the set-up and tear-down of the calling test file. */
export function useLeaderboardStack(): void {
  beforeAll(async () => {
    stack = await stackWith(['identity', 'leaderboard'], {
      AUTH_RATE_LIMIT_MAX: '1000',
      // A killed consumer's unacknowledged events come back after this, not after 30 s (the set-up's).
      EVENTS_ACK_WAIT_MS: '1000',
    });
    events = await EventPublisher.connect(stack.env);
  });

  afterAll(async () => {
    await events?.close();
    await stack?.stop();
  });
}
