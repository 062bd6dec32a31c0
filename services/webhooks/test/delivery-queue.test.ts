import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { namesOf } from '@coin/bus';
import { EVENT_SUBJECTS, identity, type OnboardingProcessedEvent, webhooks } from '@coin/contracts';
import { ensureEventsStream } from '@coin/events';
import { freePort, partnerReply, queryDatabase, type ServiceAlone, startServiceAlone } from '@coin/testing';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhooks } from '../src/service.ts';

// Webhooks alone: identity's getPartner is a stand-in pointing every partner at one local endpoint,
// and onboarding's events are published straight to the stream.
let svc: ServiceAlone;
let endpoint: Server;
let status = 503;
let metricsUrl: string;
const calls: string[] = [];
const PARKED_COMMAND = fileURLToPath(new URL('../src/tools/parked.ts', import.meta.url));

beforeAll(async () => {
  endpoint = createServer((req, res) => {
    calls.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(status).end());
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hooks`;
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  svc = await startServiceAlone('webhooks', startWebhooks, {
    METRICS_PORT: String(metricsPort),
    WEBHOOK_RETRY_BASE_MS: '20',
    WEBHOOK_RETRY_MAX_MS: '40',
    WEBHOOK_MAX_ATTEMPTS: '3',
    WEBHOOK_POLL_MS: '20',
    WEBHOOK_PARTNER_CACHE_MS: '0',
  });
  const secret = `whsec_${Buffer.from('a secret of 24 bytes ...').toString('base64')}`;
  svc.standIn(identity.getPartner, async ({ partnerId }) => partnerReply(partnerId, { url, secret }));
  await ensureEventsStream(svc.nc);
});

afterAll(async () => {
  await svc?.stop();
  await new Promise<void>((resolve) => (endpoint ? endpoint.close(() => resolve()) : resolve()));
});

/** `npm run parked -- jobs webhooks …`, against this test's database and namespace. */
async function parkedCommand(...args: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [PARKED_COMMAND, ...args], {
    env: { ...svc.env, LOG_LEVEL: 'silent' },
  });
  return stdout.split('\n').filter(Boolean);
}

async function onboardingProcessed(partnerId: string): Promise<void> {
  const event: OnboardingProcessedEvent = {
    eventId: randomUUID(),
    partnerId,
    requestId: randomUUID(),
    event: 'USER_ONBOARDING',
    status: 'success',
    failed: [],
    failedCount: 0,
    usersCount: 1,
  };
  await jetstream(svc.nc).publish(
    namesOf(svc.nc).event(EVENT_SUBJECTS.onboardingProcessed),
    JSON.stringify(event),
    {
      msgID: event.eventId,
    },
  );
}

async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the webhook-delivery queue', () => {
  it('fails (parks) a delivery after its last attempt, lists it, and delivers it once replayed', async () => {
    const partnerId = randomUUID();
    await onboardingProcessed(partnerId);
    const list = () => svc.call(webhooks.listDeliveries, { partnerId, query: { page: 1, limit: 10 } });
    const [failed] = await until(async () => {
      const page = await list();
      return page.data[0]?.status === 'failed' ? page.data : undefined;
    });
    expect(failed).toMatchObject({ attempts: 3, lastStatusCode: 503, lastError: 'HTTP 503' });
    expect(calls.filter((id) => id === failed.id)).toHaveLength(3);

    const listed = (await parkedCommand('list', 'webhook-delivery')).map((l) => JSON.parse(l));
    expect(listed).toEqual([
      expect.objectContaining({ queue: 'webhook-delivery', id: failed.id, error: 'HTTP 503' }),
    ]);

    status = 200;
    expect(await parkedCommand('replay', 'webhook-delivery', '--all')).toEqual([
      `1 webhook-delivery job(s) replayed: ${failed.id}`,
    ]);
    const delivered = await until(async () => {
      const page = await list();
      return page.data[0]?.status === 'delivered' ? page.data[0] : undefined;
    });
    expect(delivered).toMatchObject({ id: failed.id, attempts: 4, lastStatusCode: 200 });
    expect(delivered.attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(await parkedCommand('list')).toEqual([]);
  });

  it('claims due deliveries and counts its backlog without reading the delivered ones', async () => {
    const history = 20_000;
    await queryDatabase(
      svc.env.WEBHOOKS_DATABASE_URL!,
      `INSERT INTO deliveries (id, partner_id, event_id, event_type, body, status, delivered_at)
       SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'USER_ONBOARDING', '{}', 'delivered', now()
         FROM generate_series(1, $1::int)`,
      [history],
    );
    // The statistics autovacuum keeps in production (a test server may run without it); only the
    // table's owner, the migration role, may gather them.
    await queryDatabase(svc.env.WEBHOOKS_MIGRATION_DATABASE_URL!, 'ANALYZE deliveries');
    // Postgres's counters of the table, each connection's reported at its next idle moment.
    const counters = async () => {
      const [row] = await queryDatabase<{ scans: string; read_in_full: string }>(
        svc.env.WEBHOOKS_DATABASE_URL!,
        `SELECT seq_scan + coalesce(idx_scan, 0) AS scans, seq_tup_read AS read_in_full
           FROM pg_stat_user_tables WHERE relname = 'deliveries'`,
      );
      return { scans: Number(row.scans), readInFull: Number(row.read_in_full) };
    };
    const before = await counters();
    const scraped = await (await fetch(metricsUrl)).text();
    expect(scraped).toContain('coin_job_backlog{service="webhooks",queue="webhook-delivery"} 0');
    // The dispatcher polls every 20 ms: dozens of claims, and the scrape's counts.
    const after = await until(async () => {
      const c = await counters();
      return c.scans >= before.scans + 50 ? c : undefined;
    }, 30_000);
    expect(after.readInFull - before.readInFull).toBeLessThan(history);
  });
});
