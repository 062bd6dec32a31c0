import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boundPage,
  boundQuery,
  boundRow,
  type Database,
  insertUnique,
  isoTime,
  openDatabase,
} from '../src/index.ts';

const dbs = isolatedDatabases(['dbquery']);
let db: Database;

beforeAll(async () => {
  db = await openDatabase({
    service: 'dbquery',
    url: dbs.env.DBQUERY_DATABASE_URL,
    migrationUrl: dbs.env.DBQUERY_MIGRATION_DATABASE_URL,
    migrations: [],
    log: createLogger('db-test', 'silent'),
  });
  await boundQuery(
    db.em.fork(),
    'CREATE TABLE notes (id int PRIMARY KEY, body jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())',
    [],
  );
});

afterAll(async () => {
  await db?.close();
  await dbs.drop();
});

const count = async (id: number) =>
  (
    await boundQuery<{ n: number }>(db.em.fork(), 'SELECT count(*)::int AS n FROM notes WHERE id = $1', [id])
  )[0].n;

describe('boundQuery, the one way to run SQL', () => {
  it('binds $n parameters as values, however large or hostile the text', async () => {
    const body = { text: "it's; DROP TABLE notes; --", big: 'x'.repeat(2_000_000) };
    await boundQuery(db.em.fork(), 'INSERT INTO notes (id, body) VALUES ($1, $2)', [1, JSON.stringify(body)]);
    const [row] = await boundQuery<{ body: typeof body }>(
      db.em.fork(),
      'SELECT body FROM notes WHERE id = $1',
      [1],
    );
    expect(row.body).toEqual(body);
  });

  it('runs in the transaction of the entity manager it is given: a rollback undoes it', async () => {
    const failed = await db.em
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

  it('insertUnique returns the row, makes its error of a unique violation, and throws any other failure', async () => {
    const insert = (id: number, body: string | null) =>
      insertUnique<{ id: number }>(
        db.em.fork(),
        'INSERT INTO notes (id, body) VALUES ($1, $2) RETURNING id',
        [id, body],
        (constraint) => new Error(`duplicate: ${constraint}`),
      ).catch((err: Error) => err.message);
    expect(await insert(4, '{}')).toEqual({ id: 4 });
    expect(await insert(4, '{}')).toBe('duplicate: notes_pkey');
    expect(await insert(5, null)).toMatch(/null value in column "body"/);
  });

  it('gives timestamps as Postgres text, which isoTime turns into ISO 8601 UTC', async () => {
    const [row] = await boundQuery<{ at: string }>(
      db.em.fork(),
      `SELECT '2026-03-01 12:30:45.123+05:30'::timestamptz AS at`,
      [],
    );
    expect(typeof row.at).toBe('string');
    expect(isoTime(row.at)).toBe('2026-03-01T07:00:45.123Z');
  });
});

describe('boundRow and boundPage, the shapes every store reads', () => {
  beforeAll(async () => {
    await boundQuery(db.em.fork(), 'CREATE TABLE pages (owner int NOT NULL, n int NOT NULL)', []);
    await boundQuery(
      db.em.fork(),
      'INSERT INTO pages (owner, n) SELECT o, n FROM generate_series(1, 2) o, generate_series(1, 7) n',
      [],
    );
  });

  it('boundRow gives the row a statement returns, or undefined when it returns none', async () => {
    const sql = 'SELECT n FROM pages WHERE owner = $1 AND n = $2';
    expect(await boundRow<{ n: number }>(db.em.fork(), sql, [1, 3])).toEqual({ n: 3 });
    expect(await boundRow<{ n: number }>(db.em.fork(), sql, [1, 8])).toBeUndefined();
  });

  it('boundPage gives a page in order with the count of every row, its limit and offset bound after the parameters', async () => {
    const query = { columns: 'n', from: 'pages WHERE owner = $1 AND n > $2', orderBy: 'n DESC' };
    expect(await boundPage<{ n: number }>(db.em.fork(), query, [2, 1], { limit: 2, offset: 1 })).toEqual({
      rows: [{ n: 6 }, { n: 5 }],
      count: 6,
    });
    expect(await boundPage<{ n: number }>(db.em.fork(), query, [2, 1], { limit: 5, offset: 10 })).toEqual({
      rows: [],
      count: 6,
    });
  });

  it('boundPage reads the page and its count on one snapshot while rows are committed meanwhile', async () => {
    await boundQuery(db.em.fork(), 'CREATE TABLE arrivals (n int NOT NULL)', []);
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing; n++) await boundQuery(db.em.fork(), 'INSERT INTO arrivals VALUES ($1)', [n]);
    })();
    const query = { columns: 'n', from: 'arrivals WHERE n >= $1', orderBy: 'n' };
    const disagreements: { rows: number; count: number }[] = [];
    for (let i = 0; i < 200; i++) {
      const page = await boundPage<{ n: number }>(db.em.fork(), query, [0], { limit: 100_000, offset: 0 });
      if (page.rows.length !== page.count) disagreements.push({ rows: page.rows.length, count: page.count });
    }
    writing = false;
    await writer;
    expect(disagreements).toEqual([]);
  });
});
