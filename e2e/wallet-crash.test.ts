import { randomUUID } from 'node:crypto';
import { connectBus, namesOf } from '@coin/bus';
import { EVENT_SUBJECTS } from '@coin/contracts';
import {
  type IsolatedDatabases,
  isolatedDatabases,
  queryDatabase,
  type ServiceProcess,
  type Stack,
  spawnService,
  withDatabase,
} from '@coin/testing';
import { verifyLedger } from '@coin/wallet';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardWithData } from './support/onboarding.ts';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { waitFor } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { TO_USER, transfer } from './support/wallet.ts';

let stack: Stack;
let walletDbs: IsolatedDatabases;
let walletEnv: NodeJS.ProcessEnv;
let walletProcess: ServiceProcess | undefined;
let partner: RegisteredPartner;

const TRANSFERS = 300;
const CLIENTS = 16;

const walletDb = <T = any>(sql: string, params: unknown[] = []) =>
  queryDatabase<T>(walletDbs.env.WALLET_DATABASE_URL, sql, params);

beforeAll(async () => {
  // A wallet that dies mid-request leaves its callers waiting: a short gateway timeout lets them retry.
  stack = await stackWith(['identity', 'onboarding'], {
    AUTH_RATE_LIMIT_MAX: '1000',
    REQUEST_TIMEOUT_MS: '1500',
  });
  walletDbs = isolatedDatabases(['wallet']);
  walletEnv = { ...stack.env, ...walletDbs.env };
  walletProcess = await spawnService('wallet', walletEnv);
  partner = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await walletProcess?.stop();
  await stack?.stop();
  await walletDbs?.drop();
});

/** Every transferCompleted event in this stack's stream. */
async function publishedEvents(env: NodeJS.ProcessEnv): Promise<Record<string, string>[]> {
  const nc = await connectBus(env.NATS_URL!, 'wallet-crash-test', env.NATS_NAMESPACE!);
  const names = namesOf(nc);
  try {
    const consumer = await jetstream(nc).consumers.get(names.stream, {
      filter_subjects: names.event(EVENT_SUBJECTS.transferCompleted),
    });
    const events: Record<string, string>[] = [];
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 500, expires: 1000 });
      let got = 0;
      for await (const m of batch) {
        events.push(m.json());
        got += 1;
      }
      if (got === 0) return events;
    }
  } finally {
    await nc.close();
  }
}

describe('wallet killed with SIGKILL during a load of keyed transfers', () => {
  it('gives each key exactly one effect, keeps the invariants, drains the outbox, publishes each event once', async () => {
    const users = await onboardWithData(
      stack.api,
      partner.accessToken,
      Array.from({ length: 20 }, (_, i) => ({ fullname: `user ${i}` })),
    );
    const work = Array.from({ length: TRANSFERS }, (_, i) => ({
      key: `crash-${randomUUID()}`,
      body: { userId: users[i % users.length], coins: (i % 5) + 1 },
    }));
    const finals = new Map<string, any>();
    let retries = 0;
    let next = 0;
    // Each client retries its request until it gets an answer that is not about the outage.
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (next < work.length) {
        const item = work[next++];
        for (;;) {
          const res = await transfer(stack.api, TO_USER, partner.accessToken, item.body, item.key).catch(
            () => undefined,
          );
          if (res && res.status < 500 && res.status !== 409) {
            finals.set(item.key, res);
            break;
          }
          retries += 1;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });

    await waitFor('a third of the transfers', async () => (finals.size >= TRANSFERS / 3 ? true : undefined));
    await walletProcess!.kill();
    const killedAt = finals.size;
    walletProcess = await spawnService('wallet', walletEnv);
    await Promise.all(clients);

    expect(killedAt).toBeLessThan(TRANSFERS);
    expect(retries).toBeGreaterThan(0);
    const answers = [...finals.values()];
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const answeredIds = new Set(answers.map((r) => r.body.data.coinsLedger.id));
    expect(answeredIds.size).toBe(TRANSFERS);

    // Exactly one ledger entry per key, the one the client was given.
    const keys = await walletDb<{ key: string; entry_id: string }>(
      'SELECT key, entry_id FROM idempotency_keys',
    );
    expect(keys).toHaveLength(TRANSFERS);
    for (const { key, entry_id } of keys) expect(finals.get(key).body.data.coinsLedger.id).toBe(entry_id);
    const entries = await walletDb<{ id: string }>('SELECT id FROM ledger_entries');
    expect(new Set(entries.map((e) => e.id))).toEqual(answeredIds);
    const [{ total }] = await walletDb(
      "SELECT sum(balance)::text AS total FROM accounts WHERE kind = 'user'",
    );
    expect(Number(total)).toBe(work.reduce((s, w) => s + w.body.coins, 0));

    const report = await withDatabase(walletDbs.env.WALLET_DATABASE_URL, verifyLedger);
    expect(report.violations).toEqual([]);
    expect(report.entries).toBe(TRANSFERS);

    await waitFor('the outbox to drain', async () => {
      const [{ pending }] = await walletDb(
        'SELECT count(*)::int AS pending FROM outbox WHERE published_at IS NULL',
      );
      return pending === 0 ? true : undefined;
    });
    const events = await publishedEvents(stack.env);
    expect(events).toHaveLength(TRANSFERS);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(TRANSFERS);
    expect(new Set(events.map((e) => e.ledgerEntryId))).toEqual(answeredIds);
    const outboxIds = await walletDb<{ id: string }>('SELECT id FROM outbox');
    expect(new Set(events.map((e) => e.eventId))).toEqual(new Set(outboxIds.map((o) => o.id)));
  });
});
