import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueJobsIndex, mirroredColumn } from '../src/index.ts';

const dbs = isolatedDatabases(['jobsmigration']);
let orm: Database;

const sql = <T>(text: string, params: unknown[] = []) => boundQuery<T>(orm.em.fork(), text, params);

beforeAll(async () => {
  orm = await openDatabase({
    url: dbs.env.JOBSMIGRATION_DATABASE_URL,
    migrations: [],
    log: createLogger('jobs-migration-test', 'silent'),
  });
  await sql(`CREATE TABLE mail (id int PRIMARY KEY, sent_at timestamptz, failed_at timestamptz,
             next_attempt_at timestamptz)`);
  await sql('ALTER TABLE mail ADD COLUMN parked_at timestamptz');
  for (const statement of mirroredColumn({
    table: 'mail',
    fn: 'mail_parked_as_failed',
    column: 'parked_at',
    legacy: 'failed_at',
  }))
    await sql(statement);
  await sql(dueJobsIndex({ index: 'mail_due', table: 'mail', pending: 'sent_at IS NULL' }));
});

afterAll(async () => {
  await orm?.close();
  await dbs.drop();
});

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-02-01T00:00:00.000Z';

async function columns(id: number) {
  const [row] = await sql<{ parked: string | null; failed: string | null }>(
    `SELECT to_char(parked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS parked,
            to_char(failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS failed
       FROM mail WHERE id = $1`,
    [id],
  );
  return row;
}

describe('a job column mirrored with the column release 1.0.0 kept it in', () => {
  it('follows whichever column a release writes, on insert and on update', async () => {
    // 1.0.0 writes only the old column; the current release only the new one.
    await sql('INSERT INTO mail (id, failed_at) VALUES (1, $1)', [T1]);
    expect(await columns(1)).toEqual({ parked: T1, failed: T1 });
    await sql('INSERT INTO mail (id, parked_at) VALUES (2, $1)', [T1]);
    expect(await columns(2)).toEqual({ parked: T1, failed: T1 });

    await sql('UPDATE mail SET failed_at = $1 WHERE id = 1', [T2]);
    expect(await columns(1)).toEqual({ parked: T2, failed: T2 });
    await sql('UPDATE mail SET failed_at = NULL WHERE id = 1');
    expect(await columns(1)).toEqual({ parked: null, failed: null });
    await sql('UPDATE mail SET parked_at = $1 WHERE id = 2', [T2]);
    expect(await columns(2)).toEqual({ parked: T2, failed: T2 });
    // A write of other columns leaves both alone.
    await sql('UPDATE mail SET sent_at = now() WHERE id = 2');
    expect(await columns(2)).toEqual({ parked: T2, failed: T2 });
  });

  it('indexes the pending, unparked jobs by due time, as the claim reads them', async () => {
    const [index] = await sql<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'mail_due'",
    );
    expect(index.indexdef).toBe(
      'CREATE INDEX mail_due ON public.mail USING btree (next_attempt_at) WHERE ((sent_at IS NULL) AND (parked_at IS NULL))',
    );
  });
});
