import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDatabase, sqlMigration, sqlMigrations, statementsOf } from '../src/index.ts';

const log = createLogger('sql-migrations-test', 'silent');
const dbs = isolatedDatabases(['sqlmigfresh', 'sqlmigrenamed']);
const folder = mkdtempSync(join(tmpdir(), 'sql-migrations-'));
const url = (file: string) => new URL(file, pathToFileURL(`${folder}/`));

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await dbs.drop();
});

async function rows(dbUrl: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('a migration file', () => {
  it('gives its statements byte for byte, after its header', () => {
    const text = [
      '-- Why: a header of comment lines.',
      '--',
      'CREATE TABLE t (note text DEFAULT \';\', "odd;name" int);',
      '',
      '      CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $fn$',
      '      BEGIN',
      "        RAISE NOTICE 'it''s; fine'; -- a comment; inside",
      '        RETURN NULL;',
      '      END',
      '      $fn$;',
      '/* a block; comment */ SELECT $$a;b$$;',
      '',
    ].join('\n');
    expect(statementsOf(text)).toEqual([
      'CREATE TABLE t (note text DEFAULT \';\', "odd;name" int)',
      "\n      CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $fn$\n      BEGIN\n        RAISE NOTICE 'it''s; fine'; -- a comment; inside\n        RETURN NULL;\n      END\n      $fn$",
      '/* a block; comment */ SELECT $$a;b$$',
    ]);
  });

  it('refuses a statement that does not end its line, an unclosed quote, and text after the last ;', () => {
    expect(() => statementsOf('SELECT 1; SELECT 2;\n')).toThrow(/must end its line/);
    expect(() => statementsOf("SELECT 'open;\n")).toThrow(/never closes/);
    expect(() => statementsOf('SELECT 1;\nSELECT 2\n')).toThrow(/after the last statement/);
  });
});

describe('migrations from .sql files', () => {
  writeFileSync(join(folder, '0001-first.sql'), '-- The first.\nCREATE TABLE first (id int);\n');
  writeFileSync(join(folder, '0002-second.sql'), '-- The second.\nCREATE TABLE second (id int);\n');
  writeFileSync(join(folder, 'renamed.sql'), '-- Was "old-name".\nCREATE TABLE renamed (id int);\n');

  it('are a folder in file-name order, each named after its file', () => {
    expect(sqlMigrations(url('')).map((m) => m.name)).toEqual(['0001-first', '0002-second', 'renamed']);
  });

  it('record a renamed migration under its new name where the former ran, without running it again', async () => {
    const renamed = sqlMigration(url('renamed.sql'), { name: 'lib-renamed', formerly: 'old-name' });
    const first = sqlMigration(url('0001-first.sql'));
    // A database migrated before the rename: the migration ran as `old-name`.
    const before = sqlMigration(url('renamed.sql'), { name: 'old-name' });
    await migrateDatabase({ url: dbs.env.SQLMIGRENAMED_DATABASE_URL, migrations: [before], log });
    await migrateDatabase({ url: dbs.env.SQLMIGRENAMED_DATABASE_URL, migrations: [renamed, first], log });
    expect(
      await rows(dbs.env.SQLMIGRENAMED_DATABASE_URL, 'SELECT name FROM mikro_orm_migrations ORDER BY id'),
    ).toEqual([{ name: 'old-name' }, { name: 'lib-renamed' }, { name: '0001-first' }]);

    // A fresh database runs it under its new name.
    await migrateDatabase({ url: dbs.env.SQLMIGFRESH_DATABASE_URL, migrations: [renamed, first], log });
    expect(
      await rows(dbs.env.SQLMIGFRESH_DATABASE_URL, 'SELECT name FROM mikro_orm_migrations ORDER BY id'),
    ).toEqual([{ name: 'lib-renamed' }, { name: '0001-first' }]);
    expect(await rows(dbs.env.SQLMIGFRESH_DATABASE_URL, "SELECT to_regclass('renamed') AS t")).toEqual([
      { t: 'renamed' },
    ]);
  });
});
