import { randomUUID } from 'node:crypto';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger, renderMetrics } from '@coin/telemetry';
import { eventuallyPasses, isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMigrations, startOutboxRetention } from '../src/index.ts';

const log = createLogger('outbox-retention-test', 'silent');
const dbs = isolatedDatabases(['retentiontest']);
let db: Database;

beforeAll(async () => {
  db = await openDatabase({
    url: dbs.env.RETENTIONTEST_DATABASE_URL,
    migrationUrl: dbs.env.RETENTIONTEST_MIGRATION_DATABASE_URL,
    migrations: outboxMigrations,
    log,
  });
});

afterAll(async () => {
  await db?.close();
  await dbs.drop();
});

/** `count` rows of one kind, their times `hoursAgo` in the past. */
async function rows(
  count: number,
  kind: 'published' | 'pending' | 'parked',
  hoursAgo: number,
): Promise<void> {
  await boundQuery(
    db.em.fork(),
    `INSERT INTO outbox (id, subject, payload, created_at, published_at, parked_at)
     SELECT gen_random_uuid(), 'events.test.kept', '{}', t, CASE WHEN $2 = 'published' THEN t END,
            CASE WHEN $2 = 'parked' THEN t END
       FROM generate_series(1, $1::int), (SELECT now() - make_interval(hours => $3) AS t) AS at`,
    [count, kind, hoursAgo],
  );
}

async function counts(): Promise<Record<string, number>> {
  const found = await boundQuery<{ kind: string; n: number }>(
    db.em.fork(),
    `SELECT CASE WHEN published_at IS NOT NULL THEN 'published'
                 WHEN parked_at IS NOT NULL THEN 'parked' ELSE 'pending' END AS kind, count(*)::int AS n
       FROM outbox GROUP BY 1`,
    [],
  );
  return Object.fromEntries(found.map((r) => [r.kind, r.n]));
}

async function purged(service: string): Promise<number> {
  const { body } = await renderMetrics();
  const line = body.split('\n').find((l) => l.startsWith(`coin_outbox_purged_total{service="${service}"}`));
  return Number(line?.split(' ')[1] ?? 0);
}

describe('outbox retention', () => {
  it('deletes the rows published before the retention, chunk after chunk, and nothing a relay or an operator still needs', async () => {
    await boundQuery(db.em.fork(), 'TRUNCATE outbox', []);
    // More than two of the purge's chunks.
    await rows(12_001, 'published', 49);
    await rows(3, 'published', 47);
    await rows(2, 'pending', 72);
    await rows(2, 'parked', 72);
    const service = `retention-${randomUUID().slice(0, 8)}`;
    const retention = startOutboxRetention({ db, log, service, retentionHours: 48 });
    try {
      await eventuallyPasses(async () =>
        expect(await counts()).toEqual({ published: 3, pending: 2, parked: 2 }),
      );
      expect(await purged(service)).toBe(12_001);
    } finally {
      await retention.stop();
    }
  });

  it('run by two replicas at once, deletes each row once between them', async () => {
    await boundQuery(db.em.fork(), 'TRUNCATE outbox', []);
    await rows(20_000, 'published', 100);
    const services = [`replica-a-${randomUUID().slice(0, 8)}`, `replica-b-${randomUUID().slice(0, 8)}`];
    const replicas = services.map((service) =>
      startOutboxRetention({ db, log, service, retentionHours: 24 }),
    );
    try {
      await eventuallyPasses(async () => expect(await counts()).toEqual({}));
      const [a, b] = await Promise.all(services.map(purged));
      expect(a + b).toBe(20_000);
    } finally {
      await Promise.all(replicas.map((r) => r.stop()));
    }
  });
});
