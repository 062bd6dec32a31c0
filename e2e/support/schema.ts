import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

/** What code of an earlier release relies on in a database: tables, columns, functions, constraints. */
export interface Schema {
  columns: Map<string, { type: string; nullable: boolean; hasDefault: boolean }>;
  tables: Set<string>;
  functions: Set<string>;
  /** Check, unique, foreign-key and exclusion constraints and unique indexes, as `table: name`. */
  restrictions: Set<string>;
}

export async function schemaOf(url: string): Promise<Schema> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default
         FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const functions = await client.query(
      `SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS sig
         FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'`,
    );
    const restrictions = await client.query(
      `SELECT c.conrelid::regclass::text || ': ' || c.conname AS r
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND c.contype IN ('c', 'u', 'f', 'x')
       UNION
       SELECT tablename || ': ' || indexname FROM pg_indexes
        WHERE schemaname = 'public' AND indexdef LIKE 'CREATE UNIQUE%'`,
    );
    const schema: Schema = {
      columns: new Map(),
      tables: new Set(),
      functions: new Set(functions.rows.map((r) => r.sig)),
      restrictions: new Set(restrictions.rows.map((r) => r.r)),
    };
    for (const r of columns.rows) {
      schema.tables.add(r.table_name);
      schema.columns.set(`${r.table_name}.${r.column_name}`, {
        type: r.data_type,
        nullable: r.is_nullable === 'YES',
        hasDefault: r.column_default !== null,
      });
    }
    return schema;
  } finally {
    await client.end();
  }
}

/**
 * What a migration changed that code of the earlier release could trip on (the opposite of
 * expand-only): anything it used dropped or retyped, a column made NOT NULL, a NOT NULL column
 * without default added to a table it writes, a constraint or unique index added to one of its tables.
 */
export function narrowing(before: Schema, after: Schema): string[] {
  const out: string[] = [];
  for (const t of before.tables) if (!after.tables.has(t)) out.push(`table ${t} dropped`);
  for (const [name, col] of before.columns) {
    const now = after.columns.get(name);
    if (!now) {
      if (after.tables.has(name.split('.')[0])) out.push(`column ${name} dropped`);
    } else {
      if (now.type !== col.type) out.push(`column ${name} retyped ${col.type} → ${now.type}`);
      if (col.nullable && !now.nullable) out.push(`column ${name} made NOT NULL`);
    }
  }
  for (const [name, col] of after.columns)
    if (
      !before.columns.has(name) &&
      before.tables.has(name.split('.')[0]) &&
      !col.nullable &&
      !col.hasDefault
    )
      out.push(`column ${name} added NOT NULL without a default`);
  for (const f of before.functions)
    if (!after.functions.has(f)) out.push(`function ${f} dropped or changed signature`);
  for (const r of after.restrictions)
    if (!before.restrictions.has(r) && before.tables.has(r.split(':')[0])) out.push(`${r} added`);
  return out;
}

export function expansion(before: Schema, after: Schema): string {
  const tables = [...after.tables].filter((t) => !before.tables.has(t)).length;
  const columns = [...after.columns.keys()].filter((c) => !before.columns.has(c)).length;
  const functions = [...after.functions].filter((f) => !before.functions.has(f)).length;
  return `+${tables} tables, +${columns} columns, +${functions} functions`;
}

/**
 * The whole schema as `pg_dump --schema-only` prints it (tables, columns in order, defaults,
 * constraints, indexes, functions with their bodies, triggers), without its comments and session
 * settings, so that two databases' dumps are equal exactly when their schemas are.
 */
export async function schemaDump(url: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'pg_dump',
    ['--schema-only', '--no-owner', '--no-privileges', `--dbname=${url}`],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('--') && !/^\\(un)?restrict /.test(line))
    .join('\n');
}
