import { randomUUID } from 'node:crypto';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { eventuallyPasses, isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdempotencyPurge } from '../src/domain/ledger/purge-idempotency-keys.ts';
import { createTransferBatcher } from '../src/domain/ledger/transfer-batcher.ts';
import { walletMigrations } from '../src/migrations/index.ts';

const log = createLogger('wallet-purge-test', 'silent');
const dbs = isolatedDatabases(['walletpurge']);
let db: Database;

beforeAll(async () => {
  db = await openDatabase({
    url: dbs.env.WALLETPURGE_DATABASE_URL,
    migrationUrl: dbs.env.WALLETPURGE_MIGRATION_DATABASE_URL,
    migrations: walletMigrations,
    log,
  });
});

afterAll(async () => {
  await db?.close();
  await dbs.drop();
});

const party = (id: string) => ({ id, fullname_businessName: 'n', email: 'e@x.io', tag: null, userId: id });

describe('idempotency key purge', () => {
  it('forgets the keys older than their retention and keeps every ledger entry', async () => {
    const batcher = createTransferBatcher({
      db,
      log,
      shards: 2,
      batchMax: 8,
      concurrency: 1,
      onCommitted: () => {},
    });
    const partnerId = randomUUID();
    const keys = ['old-1', 'old-2', 'recent'];
    for (const key of keys) {
      const userId = randomUUID();
      await batcher.submit({
        partnerId,
        userId,
        direction: 'to_user',
        coins: '1.00',
        narration: 'purge test',
        from: party(partnerId),
        to: party(userId),
        traceContext: {},
        idempotency: { key, requestHash: key },
      });
    }
    await batcher.drain();
    await boundQuery(
      db.em.fork(),
      `UPDATE idempotency_keys SET created_at = now() - interval '73 hours' WHERE partner_id = $1 AND key LIKE 'old-%'`,
      [partnerId],
    );
    const purge = startIdempotencyPurge({ db, log, ttlHours: 72 });
    try {
      await eventuallyPasses(async () => {
        const left = await boundQuery<{ key: string }>(
          db.em.fork(),
          'SELECT key FROM idempotency_keys WHERE partner_id = $1',
          [partnerId],
        );
        expect(left.map((r) => r.key)).toEqual(['recent']);
      });
      const [{ n }] = await boundQuery<{ n: number }>(
        db.em.fork(),
        'SELECT count(*)::int AS n FROM ledger_entries WHERE partner_id = $1',
        [partnerId],
      );
      expect(n).toBe(3);
    } finally {
      await purge.stop();
    }
  });
});
