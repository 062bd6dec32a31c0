import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowSlowStatements,
  boundQuery,
  type Database,
  databaseFailure,
  openDatabase,
} from '../src/index.ts';

const dbs = isolatedDatabases(['dbtimeouts']);
let db: Database;

beforeAll(async () => {
  db = await openDatabase({
    service: 'dbtimeouts',
    url: dbs.env.DBTIMEOUTS_DATABASE_URL,
    migrationUrl: dbs.env.DBTIMEOUTS_MIGRATION_DATABASE_URL,
    migrations: [],
    log: createLogger('db-test', 'silent'),
    poolMax: 1,
    statementTimeoutMs: 200,
    acquireTimeoutMs: 2000,
    idleInTransactionTimeoutMs: 300,
  });
});

afterAll(async () => {
  await db?.close();
  await dbs.drop();
});

const sleep = (em: Database['em'], seconds: number) => boundQuery(em, 'SELECT pg_sleep($1)', [seconds]);

describe('statement timeout of a pool', () => {
  it('cancels a statement that runs longer, as a 504 SERVICE_TIMEOUT', async () => {
    const err = await sleep(db.em.fork(), 0.5).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('57014');
    expect(databaseFailure(err, 'dbtimeouts')).toMatchObject({
      status: 504,
      details: { appErrorCode: 'SERVICE_TIMEOUT' },
    });
  });

  it('lets bulk work raise it for its own transaction only, on the same pooled connection', async () => {
    await db.em.fork().transactional(async (tx) => {
      await allowSlowStatements(tx, 5000);
      await sleep(tx, 0.5);
    });
    // The pool has one connection: the raised timeout did not outlive its transaction on it.
    const after = await sleep(db.em.fork(), 0.5).catch((e: unknown) => e);
    expect((after as { code?: string }).code).toBe('57014');
  });

  it('leaves errors that are not about waiting to the caller', () => {
    expect(
      databaseFailure(Object.assign(new Error('duplicate key'), { code: '23505' }), 'x'),
    ).toBeUndefined();
    expect(databaseFailure('not an error', 'x')).toBeUndefined();
  });
});

describe('a session Postgres ends in the middle of a transaction', () => {
  it('gives its pooled connection back, so the pool does not shrink', async () => {
    const admin = new pg.Client({ connectionString: dbs.env.DBTIMEOUTS_DATABASE_URL });
    await admin.connect();
    try {
      const killed = await db.em
        .fork()
        .transactional(async (tx) => {
          const [{ pid }] = await tx.execute<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
          await tx.execute('SELECT 1');
        })
        .catch((e: unknown) => e);
      expect(killed).toBeInstanceOf(Error);
      // The pool has one connection: this waits for it, or fails after the acquire timeout.
      const [row] = await db.em.fork().execute<{ ok: number }[]>('SELECT 1 AS ok');
      expect(row.ok).toBe(1);
    } finally {
      await admin.end();
    }
  });

  it('ends a session left idle inside a transaction: its locks go, and so does its pool slot', async () => {
    const stuck = await db.em
      .fork()
      .transactional(async (tx) => {
        await tx.execute('SELECT 1');
        await new Promise((r) => setTimeout(r, 800));
        await tx.execute('SELECT 1');
      })
      .catch((e: unknown) => e);
    expect(stuck).toBeInstanceOf(Error);
    const [row] = await db.em.fork().execute<{ ok: number }[]>('SELECT 1 AS ok');
    expect(row.ok).toBe(1);
  });
});
