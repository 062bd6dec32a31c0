import { setTimeout as pause } from 'node:timers/promises';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundQuery, type Database, openDatabase, requestScope } from '../src/index.ts';

const dbs = isolatedDatabases(['dbscope']);
let orm: Database;
let other: Database;

const open = () =>
  openDatabase({
    service: 'dbscope',
    url: dbs.env.DBSCOPE_DATABASE_URL,
    migrations: [],
    log: createLogger('db-test', 'silent'),
  });

beforeAll(async () => {
  orm = await open();
  other = await open();
});

afterAll(async () => {
  await orm?.close();
  await other?.close();
  await dbs.drop();
});

describe('requestScope, the entity manager of one handled message', () => {
  it('gives orm.em one manager of its own for the whole message, across awaits, and it queries', async () => {
    const scoped = requestScope(orm, 'dbscope');
    const seen = await scoped(async () => {
      const first = orm.em.getContext();
      await pause(5);
      const [row] = await boundQuery<{ n: number }>(orm.em, 'SELECT 1 AS n', []);
      return { first, again: orm.em.getContext(), n: row.n };
    });
    expect(seen.n).toBe(1);
    expect(seen.again).toBe(seen.first);
    expect(seen.first).not.toBe(orm.em);
  });

  it('gives concurrent messages different managers', async () => {
    const scoped = requestScope(orm, 'dbscope');
    const managers = await Promise.all(
      [1, 2, 3].map(() =>
        scoped(async () => {
          await pause(5);
          return orm.em.getContext();
        }),
      ),
    );
    expect(new Set(managers).size).toBe(3);
  });

  it("leaves orm.em the global manager outside a message and inside another database's message", async () => {
    expect(orm.em.getContext(false)).toBe(orm.em);
    const inOther = await requestScope(
      other,
      'other',
    )(async () => ({
      mine: orm.em.getContext(false),
      its: other.em.getContext(false),
    }));
    expect(inOther.mine).toBe(orm.em);
    expect(inOther.its).not.toBe(other.em);
  });
});
