import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundQuery, type Database, isoTime, openDatabase, violatedUniqueConstraint } from '../src/index.ts';

const dbs = isolatedDatabases(['dbquery']);
let orm: Database;

beforeAll(async () => {
  orm = await openDatabase({
    service: 'dbquery',
    url: dbs.env.DBQUERY_DATABASE_URL,
    migrations: [],
    log: createLogger('db-test', 'silent'),
  });
  await boundQuery(
    orm.em.fork(),
    'CREATE TABLE notes (id int PRIMARY KEY, body jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())',
    [],
  );
});

afterAll(async () => {
  await orm?.close();
  await dbs.drop();
});

const count = async (id: number) =>
  (
    await boundQuery<{ n: number }>(orm.em.fork(), 'SELECT count(*)::int AS n FROM notes WHERE id = $1', [id])
  )[0].n;

describe('boundQuery, the one way to run SQL', () => {
  it('binds $n parameters as values, however large or hostile the text', async () => {
    const body = { text: "it's; DROP TABLE notes; --", big: 'x'.repeat(2_000_000) };
    await boundQuery(orm.em.fork(), 'INSERT INTO notes (id, body) VALUES ($1, $2)', [
      1,
      JSON.stringify(body),
    ]);
    const [row] = await boundQuery<{ body: typeof body }>(
      orm.em.fork(),
      'SELECT body FROM notes WHERE id = $1',
      [1],
    );
    expect(row.body).toEqual(body);
  });

  it('runs in the transaction of the entity manager it is given: a rollback undoes it', async () => {
    const failed = await orm.em
      .fork()
      .transactional(async (tx) => {
        await boundQuery(tx, `INSERT INTO notes (id, body) VALUES ($1, '{}')`, [2]);
        expect(
          (await boundQuery<{ n: number }>(tx, 'SELECT count(*)::int AS n FROM notes WHERE id = $1', [2]))[0]
            .n,
        ).toBe(1);
        // Outside the transaction the row is not there yet.
        expect(await count(2)).toBe(0);
        throw new Error('roll back');
      })
      .catch((err: Error) => err.message);
    expect(failed).toBe('roll back');
    expect(await count(2)).toBe(0);
  });

  it('names the unique constraint a statement violated, and nothing for other failures', async () => {
    const duplicate = await boundQuery(
      orm.em.fork(),
      `INSERT INTO notes (id, body) VALUES ($1, '{}')`,
      [1],
    ).catch((err: unknown) => err);
    expect(violatedUniqueConstraint(duplicate)).toBe('notes_pkey');
    const notNull = await boundQuery(
      orm.em.fork(),
      'INSERT INTO notes (id, body) VALUES ($1, NULL)',
      [3],
    ).catch((err: unknown) => err);
    expect(violatedUniqueConstraint(notNull)).toBeUndefined();
  });

  it('gives timestamps as Postgres text, which isoTime turns into ISO 8601 UTC', async () => {
    const [row] = await boundQuery<{ at: string }>(
      orm.em.fork(),
      `SELECT '2026-03-01 12:30:45.123+05:30'::timestamptz AS at`,
      [],
    );
    expect(typeof row.at).toBe('string');
    expect(isoTime(row.at)).toBe('2026-03-01T07:00:45.123Z');
  });
});
