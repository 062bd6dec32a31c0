import { randomUUID } from 'node:crypto';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { eventuallyPasses, isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRewardKeyPurge } from '../src/domain/rewards/idempotency-keys.ts';
import { rulesMigrations } from '../src/migrations/index.ts';

const log = createLogger('rules-purge-test', 'silent');
const dbs = isolatedDatabases(['rulespurge']);
let db: Database;

beforeAll(async () => {
  db = await openDatabase({
    url: dbs.env.RULESPURGE_DATABASE_URL,
    migrationUrl: dbs.env.RULESPURGE_MIGRATION_DATABASE_URL,
    migrations: rulesMigrations,
    log,
  });
});

afterAll(async () => {
  await db?.close();
  await dbs.drop();
});

describe('reward idempotency key purge', () => {
  it('forgets keys older than 7 days, all of them over several chunks, and keeps the newer', async () => {
    const partnerId = randomUUID();
    await boundQuery(
      db.em.fork(),
      `INSERT INTO reward_keys (partner_id, idempotency_key, rule_name, user_id, created_at)
       SELECT $1::uuid, 'old-' || i, 'rule', gen_random_uuid(), now() - interval '7 days 1 hour'
         FROM generate_series(1, 6001) AS i
       UNION ALL SELECT $1::uuid, 'recent', 'rule', gen_random_uuid(), now() - interval '6 days 23 hours'`,
      [partnerId],
    );
    const purge = startRewardKeyPurge({ db, log });
    try {
      await eventuallyPasses(async () => {
        const left = await boundQuery<{ idempotency_key: string }>(
          db.em.fork(),
          'SELECT idempotency_key FROM reward_keys WHERE partner_id = $1',
          [partnerId],
        );
        expect(left.map((r) => r.idempotency_key)).toEqual(['recent']);
      });
    } finally {
      await purge.stop();
    }
  });
});
