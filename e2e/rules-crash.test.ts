import { randomUUID } from 'node:crypto';
import {
  type IsolatedDatabases,
  isolatedDatabases,
  type ServiceProcess,
  type Stack,
  spawnService,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers, queryRulesDb, reward, userLedger, waitFor } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let rulesDbs: IsolatedDatabases;
let rulesEnv: NodeJS.ProcessEnv;
let rules: ServiceProcess | undefined;
let partner: RegisteredPartner;

beforeAll(async () => {
  // Rules runs as a child process so that it can be killed with SIGKILL in the middle of rewards.
  stack = await stackWith(['identity', 'onboarding', 'wallet'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    REQUEST_TIMEOUT_MS: '3000',
  });
  rulesDbs = isolatedDatabases(['rules']);
  rulesEnv = {
    ...stack.env,
    ...rulesDbs.env,
    REWARD_RETRY_POLL_MS: '50',
    REWARD_RETRY_BASE_MS: '100',
    REWARD_RETRY_MAX_MS: '400',
    RULES_CALL_TIMEOUT_MS: '1000',
  };
  rules = await spawnService('rules', rulesEnv);
  partner = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await rules?.stop();
  await stack?.stop();
  await rulesDbs?.drop();
});

const rulesDb = <T = any>(sql: string, params: unknown[] = []) =>
  queryRulesDb<T>(rulesDbs.env.RULES_DATABASE_URL, sql, params);

describe('rules service killed with SIGKILL in the middle of rewards', () => {
  it('ends with every participation paid exactly once, no coins without one, and the cap kept', async () => {
    const users = await onboardUsers(stack.api, partner.accessToken, 40);
    const ruleName = `crash ${randomUUID().slice(0, 8)}`;
    const sdk = partnerClient(stack.api, partner);
    const rule = await sdk.createRule({ name: ruleName, coinValue: '4', maxNumberOfParticipant: '25' });
    // A first reward elsewhere warms the wallet up, so that the burst below is mid-way when it is killed.
    const warmUp = `warm up ${randomUUID().slice(0, 8)}`;
    await sdk.createRule({ name: warmUp, coinValue: '1', maxNumberOfParticipant: '1' });
    await sdk.rewardUser({ userId: users[0], ruleName: warmUp });

    // Raw calls: the answers the crash gives are what is checked (the SDK would retry them).
    const inFlight = users.map((userId) => reward(stack.api, partner.accessToken, { userId, ruleName }));
    // Kill once a few rewards are paid: others are pending or not started yet.
    await waitFor('the first paid rewards', async () => {
      const [row] = await rulesDb(
        "SELECT count(*)::int AS n FROM participations WHERE rule_id = $1 AND status = 'paid'",
        [rule.id],
      );
      return row.n >= 3 ? row.n : undefined;
    });
    await rules!.kill();
    const answers = await Promise.all(inFlight);
    rules = await spawnService('rules', rulesEnv);

    const participations = await waitFor('every participation to be settled', async () => {
      const rows = await rulesDb<{ user_id: string; status: string; ledger_entry_id: string | null }>(
        'SELECT user_id, status, ledger_entry_id FROM participations WHERE rule_id = $1',
        [rule.id],
      );
      return rows.every((r) => r.status === 'paid') ? rows : undefined;
    });
    const [counter] = await rulesDb('SELECT participants FROM rules WHERE id = $1', [rule.id]);
    expect(counter.participants).toBe(participations.length);
    expect(participations.length).toBeLessThanOrEqual(25);

    // Every user paid by the wallet has a paid participation for exactly that ledger entry, and the reverse.
    const paidBy = new Map(participations.map((p) => [p.user_id, p.ledger_entry_id]));
    for (const userId of users) {
      const credits = (await userLedger(stack.api, partner.accessToken, userId)).filter(
        (e) => e.narration === `reward: ${ruleName}`,
      );
      if (paidBy.has(userId)) {
        expect(credits.map((e) => e.id)).toEqual([paidBy.get(userId)]);
        expect(credits[0].coins).toBe(4);
      } else {
        expect(credits).toEqual([]);
      }
    }
    // A caller told 200 was paid; nobody was told 200 without a participation.
    for (const res of answers.filter((r) => r.status === 200)) {
      expect(paidBy.get(res.body.data.coinsLedger.userId)).toBe(res.body.data.coinsLedger.id);
    }
    // After the restart, every user the crash left out can still be rewarded while places remain.
    const left = users.filter((u) => !paidBy.has(u)).slice(0, 25 - participations.length);
    const late = await Promise.all(
      left.map((userId) => reward(stack.api, partner.accessToken, { userId, ruleName })),
    );
    expect(late.every((r) => r.status === 200)).toBe(true);
    const [full] = await rulesDb('SELECT participants FROM rules WHERE id = $1', [rule.id]);
    expect(full.participants).toBe(25);
  });
});
