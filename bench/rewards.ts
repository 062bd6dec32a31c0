/**
 * `make bench` scenario `rewards`: rewards by rule through the gateway from 32 concurrent clients,
 * every request a new user on ONE rule (so every reward queues on that rule's counter row, the
 * price of an exact cap), beside plain partner → user transfers of the same users measured in the
 * same command (the wallet alone: what a reward costs on top of it), and rewards spread over 32
 * rules (what the hot counter row itself costs). Then a cap race: 1,000 users at once on a rule
 * capped at 100, checked to pay exactly 100.
 */
import { randomUUID } from 'node:crypto';
import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startOnboarding } from '@coin/onboarding';
import { startRules } from '@coin/rules';
import { type ApiClient, startStack } from '@coin/testing';
import { startWallet } from '@coin/wallet';
import { registerAndLogin } from '../e2e/support/partners.ts';
import { closedLoop, type LoadFigures } from './load.ts';
import type { Scenario } from './scenarios.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = 32;
const USERS = 9000;
const SPREAD_RULES = CLIENTS;

async function onboard(api: ApiClient, token: string, count: number): Promise<string[]> {
  const users = Array.from({ length: count }, () => ({ userId: randomUUID(), userData: {} }));
  const res = await api.post('/api/v1/laas/onboard-users', { users }, { token });
  if (res.status !== 200) throw new Error(`onboard-users answered ${res.status}`);
  const last = users[users.length - 1].userId;
  while ((await api.get(`/api/v1/laas/users/${last}`, { token })).status !== 200)
    await new Promise((r) => setTimeout(r, 100));
  return users.map((u) => u.userId);
}

/** `CLIENTS` clients, each request taking the next user, until the time or the users run out. */
function drive(
  url: string,
  users: string[],
  seconds: number,
  request: (userId: string) => { path: string; body: unknown; token: string },
): Promise<LoadFigures> {
  let next = 0;
  return closedLoop(url, CLIENTS, seconds, () => {
    if (next >= users.length) return undefined;
    const { path, body, token } = request(users[next++]);
    return {
      method: 'POST',
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  });
}

function print(label: string, f: LoadFigures): number {
  const rate = f.rate;
  console.log(
    `${label.padEnd(44)} ${rate.toFixed(0).padStart(6)}/s  p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms  ` +
      `(${f.ok} ok, ${f.errors} errors, ${f.seconds.toFixed(1)} s)`,
  );
  return rate;
}

async function run(): Promise<void> {
  const stack = await startStack({
    services: {
      identity: startIdentity,
      onboarding: startOnboarding,
      wallet: startWallet,
      rules: startRules,
    },
    gateway: startGateway,
    env: { LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_MAX: '1000' },
  });
  try {
    const partner = await registerAndLogin(stack.api);
    const token = partner.accessToken;
    const users = await onboard(stack.api, token, USERS);
    const third = USERS / 3;
    const ruleName = 'bench reward';
    await stack.api.post(
      '/api/v1/laas/rules/create-rule',
      { name: ruleName, coinValue: '5', maxNumberOfParticipant: String(USERS) },
      { token },
    );
    console.log(`${CLIENTS} clients, ${SECONDS} s each (or until ${third} users are used), in-process stack`);
    const baseline = print(
      'baseline: transfer-to-user-wallet',
      await drive(stack.url, users.slice(0, third), SECONDS, (userId) => ({
        path: '/api/v1/laas/coins/transfer-to-user-wallet',
        body: { userId, coins: 5 },
        token,
      })),
    );
    const rewards = print(
      'rewards on one rule (one hot counter row)',
      await drive(stack.url, users.slice(third, 2 * third), SECONDS, (userId) => ({
        path: '/api/v1/laas/rules/reward',
        body: { userId, ruleName },
        token,
      })),
    );
    for (let i = 0; i < SPREAD_RULES; i++) {
      await stack.api.post(
        '/api/v1/laas/rules/create-rule',
        { name: `bench spread ${i}`, coinValue: '5', maxNumberOfParticipant: String(USERS) },
        { token },
      );
    }
    let turn = 0;
    const spread = print(
      `rewards over ${SPREAD_RULES} rules`,
      await drive(stack.url, users.slice(2 * third), SECONDS, (userId) => ({
        path: '/api/v1/laas/rules/reward',
        body: { userId, ruleName: `bench spread ${turn++ % SPREAD_RULES}` },
        token,
      })),
    );
    console.log(
      `ratios: one-rule rewards / transfers ${(rewards / baseline).toFixed(2)}, ` +
        `one rule / ${SPREAD_RULES} rules ${(rewards / spread).toFixed(2)}`,
    );

    const raceUsers = await onboard(stack.api, token, 1000);
    await stack.api.post(
      '/api/v1/laas/rules/create-rule',
      { name: 'bench race', coinValue: '1', maxNumberOfParticipant: '100' },
      { token },
    );
    const t0 = performance.now();
    const race = await Promise.all(
      raceUsers.map((userId) =>
        stack.api.post('/api/v1/laas/rules/reward', { userId, ruleName: 'bench race' }, { token }),
      ),
    );
    const count = (status: number) => race.filter((r) => r.status === status).length;
    console.log(
      `cap race: 1000 users at once on a cap of 100: ${count(200)} paid, ${count(422)} RULE_CAP_REACHED, ` +
        `${race.length - count(200) - count(422)} other, in ${(performance.now() - t0).toFixed(0)} ms`,
    );
  } finally {
    await stack.stop();
  }
}

export const rewardsScenario: Scenario = {
  name: 'rewards',
  description: 'rewards by rule on one hot rule vs plain transfers; exact cap under a 1,000-user race',
  run,
};
