import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { onboarding, rules, wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import {
  eventually,
  queryDatabase,
  type ServiceAlone,
  startServiceAlone,
  storedUserReply,
  transferReply,
} from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRules } from '../src/service.ts';

// Rules alone with stand-ins: onboarding knows every user; the wallet is down until `walletUp`.
let svc: ServiceAlone;
let walletUp = false;
const paid: string[] = [];
const PARKED_COMMAND = fileURLToPath(new URL('../src/tools/parked.ts', import.meta.url));

beforeAll(async () => {
  svc = await startServiceAlone('rules', startRules, {
    REWARD_RETRY_POLL_MS: '20',
    REWARD_RETRY_BASE_MS: '20',
    REWARD_RETRY_MAX_MS: '40',
    REWARD_MAX_ATTEMPTS: '3',
    RULES_CALL_TIMEOUT_MS: '500',
  });
  svc.standIn(onboarding.getUser, async ({ body }) => storedUserReply(body.userId));
  svc.standIn(wallet.transferToUser, async ({ partnerId, body }) => {
    if (!walletUp) throw AppError.unavailable('wallet is down');
    paid.push(body.userId);
    return transferReply({ partnerId, ...body });
  });
});

afterAll(async () => {
  await svc?.stop();
});

/** `npm run parked -- jobs rules …`, against this test's database and namespace. */
async function parkedCommand(...args: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [PARKED_COMMAND, ...args], {
    env: { ...svc.env, LOG_LEVEL: 'silent' },
  });
  return stdout.split('\n').filter(Boolean);
}

async function participation(userId: string) {
  const [row] = await queryDatabase(
    svc.env.RULES_DATABASE_URL!,
    'SELECT id, status, attempts, last_error, parked_at FROM participations WHERE user_id = $1',
    [userId],
  );
  return row;
}

describe('the reward-payment queue', () => {
  // Three runs of the operator command, each a Node process that loads the service: slow on a busy machine.
  it('retries a reward the wallet cannot pay, parks it after the last attempt, and pays it once replayed', {
    timeout: 90_000,
  }, async () => {
    const partnerId = randomUUID();
    const rule = await svc.call(rules.createRule, {
      partnerId,
      body: {
        name: `r_${randomUUID().slice(0, 8)}`,
        coinValue: '5',
        maxNumberOfParticipant: '10',
        condition: '',
      },
    });
    const userId = randomUUID();
    const refused = await svc.refusal(rules.rewardUser, { partnerId, body: { userId, ruleName: rule.name } });
    expect(refused.status).toBe(503);
    expect(refused.details.error).toMatch(/pending and will be paid automatically/);

    const parked = await eventually(async () => {
      const p = await participation(userId);
      return p?.parked_at ? p : undefined;
    });
    expect(parked).toMatchObject({
      status: 'pending',
      attempts: 3,
      last_error: expect.stringMatching(/wallet is down/),
    });

    const listed = (await parkedCommand('list', 'reward-payment')).map((l) => JSON.parse(l));
    expect(listed).toEqual([
      expect.objectContaining({ queue: 'reward-payment', id: parked.id, attempts: 3 }),
    ]);

    walletUp = true;
    expect(await parkedCommand('replay', 'reward-payment', parked.id)).toEqual([
      `1 reward-payment job(s) replayed: ${parked.id}`,
    ]);
    await eventually(async () => ((await participation(userId))?.status === 'paid' ? true : undefined));
    expect(paid.filter((u) => u === userId)).toHaveLength(1);
    expect(await parkedCommand('list')).toEqual([]);
  });
});
