import { connectBus } from '@coin/bus';
import { EVENT_SUBJECTS } from '@coin/contracts';
import {
  eventually,
  isolatedDatabases,
  type ReceivedWebhook,
  type ServiceProcess,
  seededRandom,
  spawnService,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '@coin/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerEventPublished } from './support/events.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { FROM_USER, TO_USER, transfer } from './support/wallet.ts';

/**
 * `sequence` is gap-free per partner across a kill -9 of the webhooks service while transfers flow:
 * the webhooks service runs as a child process beside the rest of the stack, is killed a third of
 * the way through a seeded workload of concurrent transfers and started again at two thirds. Each
 * partner's receiver must end with sequences exactly 1..N, each number on one delivery only (a
 * delivery may arrive twice, with its webhook-id), one per transfer that succeeded after webhooks
 * first started (the ones before it are history a deployment does not replay).
 */

const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

interface Subscriber {
  p: RegisteredPartner;
  receiver: WebhookReceiver;
  secret: string;
  users: string[];
  /** Ledger entry ids of the transfers that succeeded. */
  entries: string[];
}

describe('webhook event sequences across a crash', () => {
  it('kill -9 of webhooks mid-workload: every partner receives sequences 1..N once each', async () => {
    const rng = seededRandom('webhook-events-crash');
    const dbs = isolatedDatabases(['webhooks']);
    const stack = await stackWith(['identity', 'onboarding', 'wallet'], {
      AUTH_RATE_LIMIT_MAX: '1000',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_MS: '300',
      WEBHOOK_MAX_ATTEMPTS: '30',
      WEBHOOK_TIMEOUT_MS: '1000',
      ...dbs.env,
    });
    cleanups.push(
      () => stack.stop(),
      () => dbs.drop(),
    );
    const spawn = async () => {
      const child: ServiceProcess = await spawnService('webhooks', { ...stack.env, LOG_LEVEL: 'silent' });
      cleanups.push(() => child.kill());
      return child;
    };

    const subscribers: Subscriber[] = [];
    for (let i = 0; i < 2; i++) {
      const receiver = await startWebhookReceiver();
      cleanups.push(() => receiver.close());
      // One answer in ten is a 503: those deliveries go through the retries too.
      receiver.respondWith((n) => (n % 10 === 3 ? 503 : 200));
      const p = await registerAndLogin(stack.api);
      const { secret } = await partnerClient(stack.api, p).setWebhook({
        url: receiver.url,
        events: ['COINS_TRANSFERRED'],
      });
      const users = await onboardUsers(stack.api, p.accessToken, 4);
      subscribers.push({ p, receiver, secret: secret!, users, entries: [] });
    }

    // Transfers before the webhooks service first runs: its durable exists from the operator's bus
    // set-up, so they are delivered once it starts, in sequence with the rest.
    const nc = await connectBus(stack.env.NATS_URL!, 'webhook-events-crash test', stack.env.NATS_NAMESPACE!);
    cleanups.push(() => nc.close());
    for (const s of subscribers) {
      const res = await transfer(stack.api, TO_USER, s.p.accessToken, { userId: s.users[0], coins: 50 });
      expect(res.status).toBe(200);
      s.entries.push(res.body.data.coinsLedger.id);
      await ledgerEventPublished(nc, EVENT_SUBJECTS.transferCompleted, res.body.data.coinsLedger.id);
    }

    let child = await spawn();
    const TRANSFERS = 240;
    const plan = Array.from({ length: TRANSFERS }, () => ({
      who: rng.pick(subscribers),
      userIndex: rng.below(4),
      toUser: rng.below(3) !== 0,
      coins: 1 + rng.below(20),
    }));
    let next = 0;
    let killedAt = -1;
    let delivered = -1;
    async function worker() {
      for (let i = next++; i < TRANSFERS; i = next++) {
        if (i === TRANSFERS / 3) {
          // A loaded machine may reach this transfer before the new service's first delivery: the
          // kill must come while deliveries are under way, so it waits for one (the others go on).
          const received = () => subscribers.reduce((n, s) => n + s.receiver.received.length, 0);
          delivered = await eventually(async () => received() || undefined, 30_000);
          killedAt = i;
          await child.kill();
        }
        if (i === (2 * TRANSFERS) / 3) child = await spawn();
        const t = plan[i];
        const res = await transfer(stack.api, t.toUser ? TO_USER : FROM_USER, t.who.p.accessToken, {
          userId: t.who.users[t.userIndex],
          coins: t.coins,
        });
        if (res.status === 200) t.who.entries.push(res.body.data.coinsLedger.id);
        else expect(res.body.data.appErrorCode).toBe('INSUFFICIENT_BALANCE');
      }
    }
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(killedAt).toBe(TRANSFERS / 3);
    // The kill came while deliveries were under way, not before the first or after the last.
    expect(delivered).toBeGreaterThan(0);
    console.log(
      `killed at transfer ${killedAt} after ${delivered} calls received; restarted at ${(2 * TRANSFERS) / 3}`,
    );

    for (const s of subscribers) {
      const n = s.entries.length;
      const byId = await eventually(async () => {
        const ok = new Map<string, ReceivedWebhook>();
        for (const r of s.receiver.received) ok.set(String(r.headers['webhook-id']), r);
        return ok.size >= n ? ok : undefined;
      }, 60_000);
      // Anything more than N would arrive by now: retries run every 300 ms at most.
      await new Promise((r) => setTimeout(r, 1500));
      const hooks = [...byId.values()];
      console.log(
        `partner ${s.p.partnerId}: ${n} transfers, ${hooks.length} deliveries, ${s.receiver.received.length} calls received`,
      );
      for (const r of s.receiver.received) expect(verifySignature(s.secret, r.headers, r.body)).toBe(true);
      // A delivery sent again carries its sequence again, never another one.
      for (const r of s.receiver.received)
        expect(r.json.sequence).toBe(byId.get(String(r.headers['webhook-id']))!.json.sequence);
      expect(new Set(s.receiver.received.map((r) => String(r.headers['webhook-id']))).size).toBe(n);
      expect(hooks.map((h) => h.json.sequence).sort((a, b) => a - b)).toEqual(
        Array.from({ length: n }, (_, i) => i + 1),
      );
      expect(hooks.map((h) => h.json.ledgerEntryId).sort()).toEqual([...s.entries].sort());
      expect(hooks.every((h) => h.json.event === 'COINS_TRANSFERRED')).toBe(true);
    }
  }, 180_000);
});
