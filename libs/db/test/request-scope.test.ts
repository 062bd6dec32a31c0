import { setTimeout as pause } from 'node:timers/promises';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundQuery, type Database, openDatabase, requestScope } from '../src/index.ts';

const dbs = isolatedDatabases(['dbscope']);
let db: Database;
let other: Database;

const open = () =>
  openDatabase({
    service: 'dbscope',
    url: dbs.env.DBSCOPE_DATABASE_URL,
    migrationUrl: dbs.env.DBSCOPE_MIGRATION_DATABASE_URL,
    migrations: [],
    log: createLogger('db-test', 'silent'),
  });

beforeAll(async () => {
  db = await open();
  other = await open();
});

afterAll(async () => {
  await db?.close();
  await other?.close();
  await dbs.drop();
});

describe('requestScope, the entity manager of one handled message', () => {
  it('gives db.em one manager of its own for the whole message, across awaits, and it queries', async () => {
    const scoped = requestScope(db, 'dbscope');
    const seen = await scoped(async () => {
      const first = db.em.getContext();
      await pause(5);
      const [row] = await boundQuery<{ n: number }>(db.em, 'SELECT 1 AS n', []);
      return { first, again: db.em.getContext(), n: row.n };
    });
    expect(seen.n).toBe(1);
    expect(seen.again).toBe(seen.first);
    expect(seen.first).not.toBe(db.em);
  });

  it('gives concurrent messages different managers', async () => {
    const scoped = requestScope(db, 'dbscope');
    const managers = await Promise.all(
      [1, 2, 3].map(() =>
        scoped(async () => {
          await pause(5);
          return db.em.getContext();
        }),
      ),
    );
    expect(new Set(managers).size).toBe(3);
  });

  it("leaves db.em the global manager outside a message and inside another database's message", async () => {
    expect(db.em.getContext(false)).toBe(db.em);
    const inOther = await requestScope(
      other,
      'other',
    )(async () => ({
      mine: db.em.getContext(false),
      its: other.em.getContext(false),
    }));
    expect(inOther.mine).toBe(db.em);
    expect(inOther.its).not.toBe(other.em);
  });
});
