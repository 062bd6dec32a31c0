import { randomUUID } from 'node:crypto';
import { migrateDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityMigrations } from '../src/migrations/index.ts';

// Migration 0004 keeps the mail queue's `parked_at` equal to release 1.0.0's `failed_at`, whichever
// release writes the row, so replicas of both honour each other's parked mails.
const dbs = isolatedDatabases(['identitymailjobs']);
const client = new pg.Client({ connectionString: dbs.env.IDENTITYMAILJOBS_DATABASE_URL });

beforeAll(async () => {
  await migrateDatabase({
    url: dbs.env.IDENTITYMAILJOBS_DATABASE_URL,
    migrations: identityMigrations,
    log: createLogger('mail-jobs-migration-test', 'silent'),
  });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await dbs.drop();
});

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-02-01T00:00:00.000Z';

async function insert(column: 'failed_at' | 'parked_at', at: string): Promise<string> {
  const id = randomUUID();
  await client.query(
    `INSERT INTO mail_outbox (id, recipient, subject, ${column}) VALUES ($1, 'a@b.example', 's', $2)`,
    [id, at],
  );
  return id;
}

async function columns(id: string) {
  const { rows } = await client.query(
    `SELECT to_char(parked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS parked,
            to_char(failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS failed
       FROM mail_outbox WHERE id = $1`,
    [id],
  );
  return rows[0];
}

describe("the mail queue's parked column, mirrored with the column release 1.0.0 kept it in", () => {
  it('follows whichever column a release writes, on insert and on update', async () => {
    // 1.0.0 writes only the old column; the current release only the new one.
    const old = await insert('failed_at', T1);
    expect(await columns(old)).toEqual({ parked: T1, failed: T1 });
    const current = await insert('parked_at', T1);
    expect(await columns(current)).toEqual({ parked: T1, failed: T1 });

    await client.query('UPDATE mail_outbox SET failed_at = $1 WHERE id = $2', [T2, old]);
    expect(await columns(old)).toEqual({ parked: T2, failed: T2 });
    await client.query('UPDATE mail_outbox SET failed_at = NULL WHERE id = $1', [old]);
    expect(await columns(old)).toEqual({ parked: null, failed: null });
    await client.query('UPDATE mail_outbox SET parked_at = $1 WHERE id = $2', [T2, current]);
    expect(await columns(current)).toEqual({ parked: T2, failed: T2 });
    // A write of other columns leaves both alone.
    await client.query('UPDATE mail_outbox SET sent_at = now() WHERE id = $1', [current]);
    expect(await columns(current)).toEqual({ parked: T2, failed: T2 });
  });

  it('indexes the pending, unparked mails by due time, as the claim reads them', async () => {
    const { rows } = await client.query(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'mail_outbox_due_jobs'",
    );
    expect(rows[0].indexdef).toBe(
      'CREATE INDEX mail_outbox_due_jobs ON public.mail_outbox USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (parked_at IS NULL))',
    );
  });
});
