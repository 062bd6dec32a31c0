import { eventually, type Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventPublisher } from './support/leaderboard.ts';
import { newUsers, onboard } from './support/onboarding.ts';
import { registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

/**
 * Users whose userData is large (15 KB each, under the 16 KB limit): onboarding's events about them
 * stay under the event size bound, and a page of 80 of them (1.2 MB, over NATS's 1 MB message
 * limit) is answered through the gateway rather than timing out.
 */

let stack: Stack;
let events: EventPublisher;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'leaderboard'], { AUTH_RATE_LIMIT_MAX: '1000' });
  events = await EventPublisher.connect(stack.env);
});

afterAll(async () => {
  await events?.close();
  await stack?.stop();
});

describe('replies larger than the NATS payload limit', () => {
  it('a points-leaderboard page of users with large userData answers 200 with every user', async () => {
    const p = await registerAndLogin(stack.api);
    const users = newUsers(80, (i) => ({ n: i, bio: 'b'.repeat(15_000) }));
    await onboard(stack.api, p, users);
    const at = new Date().toISOString();
    for (const [i, u] of users.entries()) await events.reward(p.partnerId, u.userId, 1000 - i, at);

    const page = await eventually(async () => {
      const res = await stack.api.get('/api/v1/laas/leaderboard/new', {
        token: p.accessToken,
        query: { take: 100 },
      });
      if (res.status !== 200)
        throw new Error(`points board answered ${res.status}: ${res.text.slice(0, 300)}`);
      const data = res.body.data.data as { user: unknown }[];
      return data.length === users.length && data.every((e) => e.user) ? res : undefined;
    }, 30_000);
    expect(page.text.length).toBeGreaterThan(1024 * 1024);
    expect(page.body.data.data.map((e: { user: { userId: string } }) => e.user.userId)).toEqual(
      users.map((u) => u.userId),
    );
    expect(page.body.data.data[79].user.userData).toEqual(users[79].userData);

    const one = await stack.api.get(`/api/v1/laas/users/${users[0].userId}`, { token: p.accessToken });
    expect(one.status).toBe(200);
    expect(one.body.data.userData).toEqual(users[0].userData);
  }, 60_000);
});
