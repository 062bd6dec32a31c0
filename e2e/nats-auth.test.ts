import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { busNames, connectBus, type NatsConnection, PAYLOAD_STREAM, publicKeyOf } from '@coin/bus';
import { allOperations, EVENT_CONSUMERS, EVENT_SUBJECTS } from '@coin/contracts';
import { startGateway } from '@coin/gateway';
import {
  type Stack,
  startStack,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '@coin/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { errors, nkeys } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../scripts/nats-auth/permissions.ts';
import { type AuthorizedNats, startAuthorizedNats } from './support/authorized-nats.ts';
import { wholeCoinBoard, wholePointsBoard } from './support/leaderboard.ts';
import { setWebhook } from './support/onboarding.ts';
import { registerAndLogin } from './support/partners.ts';
import { createRule, onboardUsers, reward, userLedger, waitFor } from './support/rewards.ts';
import { starters } from './support/stack.ts';
import { TO_USER, transfer } from './support/wallet.ts';

// A nats-server of this test's own with the generated authorization (support/authorized-nats.ts).

const namespace = `t${randomBytes(5).toString('hex')}`;
const names = busNames(namespace);
let nats: AuthorizedNats;
let natsUrl: string;
let stack: Stack;
let receiver: WebhookReceiver;

function seedOf(role: Role): string {
  return nats.seedOf(role);
}

beforeAll(async () => {
  nats = await startAuthorizedNats(namespace);
  natsUrl = nats.url;
  const services = Object.fromEntries(
    Object.entries(starters).map(([name, start]) => [
      name,
      (env: NodeJS.ProcessEnv) => start({ ...env, NATS_NKEY_SEED: seedOf(name as Role) }),
    ]),
  );
  // The harness waits for each service's PING as the gateway's readiness does, with its credentials.
  stack = await startStack({
    services,
    gateway: (env) => startGateway({ ...env, NATS_NKEY_SEED: seedOf('gateway') }),
    env: {
      NATS_URL: natsUrl,
      NATS_NAMESPACE: namespace,
      NATS_NKEY_SEED: seedOf('gateway'),
      // The harness sets up the bus as the operator, as `npm run bus:setup` does before a deployment starts.
      NATS_OPERATOR_NKEY_SEED: seedOf('operator'),
      AUTH_RATE_LIMIT_MAX: '1000',
    },
  });
  receiver = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  await nats?.stop();
});

async function connectAs(role: Role): Promise<NatsConnection> {
  return nats.connectAs(role, `forbidden-${role}`);
}

/** The server's answer to a request on `subject`: refused, or anything else (a reply, a timeout). */
async function outcome(nc: NatsConnection, subject: string): Promise<'refused' | 'allowed'> {
  try {
    await nc.request(subject, new TextEncoder().encode('{}'), { timeout: 3000 });
    return 'allowed';
  } catch (err) {
    const cause = err instanceof errors.RequestError ? err.cause : err;
    return cause instanceof errors.PermissionViolationError && cause.operation === 'publish'
      ? 'refused'
      : 'allowed';
  }
}

/** Whether the server refuses a subscription to `subject` for `nc`. */
async function subscriptionRefused(nc: NatsConnection, subject: string): Promise<boolean> {
  const sub = nc.subscribe(subject);
  const closed = await Promise.race([
    sub.closed,
    nc.flush().then(() => new Promise((r) => setTimeout(() => r('open'), 500))),
  ]);
  sub.unsubscribe();
  return closed instanceof errors.PermissionViolationError;
}

describe('NATS with least-privilege credentials', () => {
  it('runs the partner journey end to end through the gateway', async () => {
    const api = stack.api;
    const p = await registerAndLogin(api);
    const secret = await setWebhook(api, p, receiver.url);
    const users = await onboardUsers(api, p.accessToken, 3);
    const [hook] = await receiver.waitFor(1);
    expect(hook.json).toMatchObject({ event: 'USER_ONBOARDING', status: 'success', failed: [] });
    expect(verifySignature(secret, hook.headers, hook.body)).toBe(true);

    const ruleName = `auth ${randomUUID().slice(0, 8)}`;
    const rule = await createRule(api, p.accessToken, {
      name: ruleName,
      coinValue: '5',
      maxNumberOfParticipant: 10,
      condition: 'bus with credentials',
    });
    expect(rule.status).toBe(200);
    expect((await reward(api, p.accessToken, { userId: users[0], ruleName })).status).toBe(200);
    // Over max_payload: the gateway offloads the request to the payload stream, onboarding takes it.
    const many = Array.from({ length: 1000 }, () => ({
      userId: randomUUID(),
      userData: { note: 'x'.repeat(300) },
    }));
    const big = await api.post('/api/v1/laas/onboard-users', { users: many }, { token: p.accessToken });
    expect(big.status).toBe(200);
    const gateway = await connectAs('gateway');
    try {
      const payloads = await (await jetstreamManager(gateway)).streams.info(PAYLOAD_STREAM);
      expect(payloads.state.last_seq).toBeGreaterThan(0);
    } finally {
      await gateway.close();
    }
    const hooksOf = (event: string) => receiver.received.filter((r) => r.json.event === event);
    const bigHook = await waitFor('the second onboarding webhook', async () => hooksOf('USER_ONBOARDING')[1]);
    expect(bigHook.json).toMatchObject({ event: 'USER_ONBOARDING', failed: [] });

    const sent = await transfer(api, TO_USER, p.accessToken, { userId: users[1], coins: 7 });
    expect(sent.status).toBe(200);
    // Webhooks takes the wallet's and the rules' events through its own durables too.
    await waitFor('the transfer webhook', async () =>
      hooksOf('COINS_TRANSFERRED').find((r) => r.json.ledgerEntryId === sent.body.data.coinsLedger.id),
    );

    expect((await userLedger(api, p.accessToken, users[0])).length).toBe(1);
    expect((await userLedger(api, p.accessToken, users[1])).length).toBe(1);
    // The leaderboard's consumers pull the reward and the transfer through their own durables.
    const points = await waitFor('the points board', async () => {
      const board = await wholePointsBoard(api, p.accessToken);
      return board.length > 0 ? board : undefined;
    });
    expect(points.map((e) => e.points)).toEqual([5]);
    const now = new Date();
    await waitFor('the coin board', async () => {
      const board = await wholeCoinBoard(api, p.accessToken, now.getUTCFullYear(), now.getUTCMonth() + 1);
      return board.some((e) => e.userId === users[1]) ? board : undefined;
    });
    const ready = await fetch(`${stack.url}/ready`);
    expect(ready.status).toBe(200);
    // Nothing any process did on the way (large payloads, parking, consumer state) was refused.
    const log = await nats.log();
    expect(log.split('\n').filter((line: string) => /Violation/i.test(line))).toEqual([]);
  }, 120_000);

  it('refuses a connection without credentials or with a key the server does not know', async () => {
    await expect(connectBus(natsUrl, 'anonymous', namespace)).rejects.toThrow(/Authorization/i);
    const stranger = new TextDecoder().decode(nkeys.createUser().getSeed());
    await expect(connectBus(natsUrl, 'stranger', namespace, stranger)).rejects.toThrow(/Authorization/i);
  });

  it('refuses every operation to every process the contract does not name as its caller', async () => {
    const refused: string[] = [];
    const allowed: string[] = [];
    for (const role of ROLES) {
      const nc = await connectAs(role);
      try {
        const forbidden = allOperations.filter((op) => !op.callers.includes(role as never));
        const outcomes = await Promise.all(forbidden.map((op) => outcome(nc, names.subject(op.subject))));
        for (const [i, op] of forbidden.entries())
          (outcomes[i] === 'refused' ? refused : allowed).push(`${role} → ${op.subject}`);
      } finally {
        await nc.close();
      }
    }
    console.log(
      `refused ${refused.length} forbidden calls, e.g. ${refused.filter((r) => /transferToUser|getPartner\b/.test(r)).join('; ')}`,
    );
    expect(allowed).toEqual([]);
    expect(refused.length).toBeGreaterThan(100);
    // The partner's webhook secret: only webhooks asks for it; the wallet (which once did) no longer may.
    expect(refused).toContain('wallet → svc.identity.v1.getPartner');
    expect(refused).toContain('gateway → svc.identity.v1.getPartner');
    // Minting coins: the gateway (for a partner) and rules (for a reward) only.
    for (const role of ['identity', 'onboarding', 'leaderboard', 'webhooks', 'wallet', 'operator'])
      expect(refused).toContain(`${role} → svc.wallet.v1.transferToUser`);
  }, 60_000);

  it("runs the operator's parked-events command with the operator's credentials only", async () => {
    const run = promisify(execFile);
    const PARKED = fileURLToPath(new URL('../libs/events/src/parked-command.ts', import.meta.url));
    const env = { ...process.env, NATS_URL: natsUrl, NATS_NAMESPACE: namespace };
    const listed = await run(process.execPath, [PARKED, 'list'], {
      env: { ...env, NATS_NKEY_SEED: seedOf('operator') },
    });
    expect(listed.stderr).toContain('0 parked event(s)');
    await expect(
      run(process.execPath, [PARKED, 'list'], { env: { ...env, NATS_NKEY_SEED: seedOf('gateway') } }),
    ).rejects.toThrow(/Permissions Violation/);
  });

  it('lets a named caller through: webhooks reads a partner, rules pays a reward', async () => {
    const webhooks = await connectAs('webhooks');
    const rules = await connectAs('rules');
    try {
      expect(await outcome(webhooks, names.subject('svc.identity.v1.getPartner'))).toBe('allowed');
      expect(await outcome(rules, names.subject('svc.wallet.v1.transferToUser'))).toBe('allowed');
    } finally {
      await webhooks.close();
      await rules.close();
    }
  });

  it("lets only a service answer its subjects, and no one read another's replies or forge its events", async () => {
    const wallet = await connectAs('wallet');
    const webhooks = await connectAs('webhooks');
    try {
      // Another service listening on identity's subjects would receive the secret requests.
      expect(await subscriptionRefused(wallet, names.subject('svc.identity.v1.getPartner'))).toBe(true);
      expect(await subscriptionRefused(webhooks, names.subject('svc.wallet.v1.transferToUser'))).toBe(true);
      // Replies travel to each credential's own inbox: no one may listen on another's or on all.
      const webhooksInbox = `_INBOX_${publicKeyOf(seedOf('webhooks'))}.>`;
      expect(await subscriptionRefused(wallet, webhooksInbox)).toBe(true);
      expect(await subscriptionRefused(wallet, '_INBOX.>')).toBe(true);
      expect(await subscriptionRefused(wallet, '>')).toBe(true);
      // Events: a service publishes only its own facts, and pulls only from its own durables.
      expect(await outcome(webhooks, names.event(EVENT_SUBJECTS.transferCompleted))).toBe('refused');
      expect(await outcome(wallet, names.event(EVENT_SUBJECTS.onboardingProcessed))).toBe('refused');
      const leaderboardDurable = names.durable(EVENT_CONSUMERS.leaderboardTransfers.durable);
      expect(await outcome(webhooks, `$JS.API.CONSUMER.MSG.NEXT.${names.stream}.${leaderboardDurable}`)).toBe(
        'refused',
      );
      expect(await outcome(wallet, `$JS.API.STREAM.DELETE.${names.stream}`)).toBe('refused');
    } finally {
      await wallet.close();
      await webhooks.close();
    }
  });
});
