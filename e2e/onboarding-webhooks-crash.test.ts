import {
  eventually,
  type IsolatedDatabases,
  isolatedDatabases,
  type ServiceProcess,
  type Stack,
  spawnService,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@coin/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newUsers, onboard, setWebhook } from './support/onboarding.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

/**
 * kill -9 of a service process in the middle of its work: nothing acknowledged is lost, and the
 * partner gets one webhook per request. Each test runs the crashing service as a child process
 * beside the rest of the stack in this process.
 */

const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {});

// One stack at a time: two identities on one NATS server would answer each other's requests.
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

afterAll(async () => {});

const common = {
  AUTH_RATE_LIMIT_MAX: '1000',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_PARTNER_CACHE_MS: '0',
};

async function stackAround(crashing: 'onboarding' | 'webhooks', env: Record<string, string>) {
  const dbs: IsolatedDatabases = isolatedDatabases([crashing]);
  const names = ['identity', 'onboarding', 'webhooks'].filter((n) => n !== crashing);
  const stack: Stack = await stackWith(names, {
    ...common,
    ...env,
    ...dbs.env,
  });
  const receiver = await startWebhookReceiver();
  cleanups.push(
    () => stack.stop(),
    () => dbs.drop(),
    () => receiver.close(),
  );
  const partner: RegisteredPartner = await registerAndLogin(stack.api);
  await setWebhook(stack.api, partner, receiver.url);
  const spawn = async () => {
    const child: ServiceProcess = await spawnService(crashing, { ...stack.env, LOG_LEVEL: 'silent' });
    cleanups.push(() => child.kill());
    return child;
  };
  return { stack, receiver, partner, spawn, dbUrl: dbs.env[`${crashing.toUpperCase()}_DATABASE_URL`] };
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const requestIds = (r: WebhookReceiver) => r.received.map((h) => h.json.requestId as string);

describe('crash safety', () => {
  it('webhooks killed with deliveries pending: every one is delivered after the restart', async () => {
    const { stack, receiver, partner, spawn } = await stackAround('webhooks', {
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_MS: '200',
      WEBHOOK_MAX_ATTEMPTS: '10',
      WEBHOOK_TIMEOUT_MS: '500',
    });
    receiver.respondWith(() => 503);
    const first = await spawn();
    for (let i = 0; i < 5; i++) await onboard(stack.api, partner, newUsers(2));
    await eventually(async () => (new Set(requestIds(receiver)).size === 5 ? true : undefined));
    await first.kill();

    receiver.respondWith(() => 200);
    const callsBefore = receiver.received.length;
    await spawn();
    await eventually(async () =>
      new Set(requestIds(receiver).slice(callsBefore)).size === 5 ? true : undefined,
    );
    const sdk = partnerClient(stack.api, partner);
    const list = await eventually(async () => {
      const page = await sdk.listDeliveries({});
      return page.data.every((d) => d.status === 'delivered') ? page : undefined;
    });
    expect(list.count).toBe(5);
    // Each request reached the partner with one 200; none was answered 200 twice.
    await new Promise((r) => setTimeout(r, 500));
    const delivered = requestIds(receiver).slice(callsBefore);
    expect(delivered.sort()).toEqual([...new Set(delivered)].sort());
  });

  it('onboarding killed mid-request: the request is completed after the restart with exactly one webhook', async () => {
    const { stack, receiver, partner, spawn, dbUrl } = await stackAround('onboarding', {
      ONBOARDING_CHUNK_SIZE: '100',
      ONBOARDING_LEASE_MS: '500',
      ONBOARDING_POLL_MS: '50',
    });
    const first = await spawn();
    const users = newUsers(20_000);
    await onboard(stack.api, partner, users);
    await eventually(async () => {
      const [r] = await query<{ next_index: number }>(dbUrl, 'SELECT next_index FROM onboarding_requests');
      return r && r.next_index > 0 ? true : undefined;
    });
    await first.kill();
    const [atKill] = await query<{ next_index: number; status: string }>(
      dbUrl,
      'SELECT next_index, status FROM onboarding_requests',
    );
    expect(atKill.status).toBe('pending');
    expect(atKill.next_index).toBeLessThan(users.length);
    expect(receiver.received).toHaveLength(0);

    await spawn();
    const [hook] = await receiver.waitFor(1, 30_000);
    expect(hook.json).toMatchObject({ event: 'USER_ONBOARDING', status: 'success', failed: [] });
    const [{ count }] = await query<{ count: number }>(dbUrl, 'SELECT count(*)::int AS count FROM users');
    expect(count).toBe(users.length);
    const [{ events }] = await query<{ events: number }>(
      dbUrl,
      "SELECT count(*)::int AS events FROM outbox WHERE subject LIKE '%requestProcessed'",
    );
    expect(events).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(1);
  }, 60_000);
});
