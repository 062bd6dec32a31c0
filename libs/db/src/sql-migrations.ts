import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MigrationObject } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';

/** A migration as the migrator lists it, and the name it was recorded under before it was renamed. */
export interface NamedMigration extends MigrationObject {
  formerly?: string;
}

/**
 * The statements of a migration file, byte for byte: the file is a header of `--` lines (why the
 * migration exists), then statements, each ended by a `;` at the end of a line. A `;` inside a
 * quoted string, a dollar-quoted body or a comment ends nothing. The statements are kept exactly as
 * they ran, indentation included (a function's body is stored as written).
 */
export function statementsOf(text: string, file = 'migration'): string[] {
  let i = 0;
  while (text.startsWith('--', i)) i = skipTo(text, '\n', i, file) + 1;
  const statements: string[] = [];
  let start = i;
  while (i < text.length) {
    const rest = text.slice(i, i + 2);
    const dollar = text[i] === '$' ? /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64)) : null;
    if (text[i] === "'" || text[i] === '"') i = closingQuote(text, i, file) + 1;
    else if (rest === '--') i = skipTo(text, '\n', i, file);
    else if (rest === '/*') i = skipTo(text, '*/', i + 2, file) + 2;
    else if (dollar) i = skipTo(text, dollar[0], i + dollar[0].length, file) + dollar[0].length;
    else if (text[i] === ';') {
      if (i + 1 < text.length && text[i + 1] !== '\n')
        throw new Error(`${file}: a statement's ; must end its line (offset ${i})`);
      statements.push(text.slice(start, i));
      i += 2;
      start = i;
    } else i++;
  }
  if (text.slice(start).trim() !== '') throw new Error(`${file}: text after the last statement's ;`);
  return statements;
}

function skipTo(text: string, end: string, from: number, file: string): number {
  const at = text.indexOf(end, from);
  if (at < 0) throw new Error(`${file}: ${JSON.stringify(end)} never closes (offset ${from})`);
  return at;
}

/** The quote closing the string opened at `open`; a doubled quote inside is an escaped one. */
function closingQuote(text: string, open: number, file: string): number {
  const quote = text[open];
  let at = skipTo(text, quote, open + 1, file);
  while (text[at + 1] === quote) at = skipTo(text, quote, at + 2, file);
  return at;
}

/** One `.sql` file as a migration named `name` (its file name without `.sql` unless given). */
export function sqlMigration(file: URL, options: { name?: string; formerly?: string } = {}): NamedMigration {
  const path = fileURLToPath(file);
  const statements = statementsOf(readFileSync(path, 'utf8'), path);
  const name = options.name ?? path.replace(/^.*\//, '').replace(/\.sql$/, '');
  class SqlFileMigration extends Migration {
    override up(): void {
      for (const statement of statements) this.addSql(statement);
    }
  }
  return { name, class: SqlFileMigration, ...(options.formerly ? { formerly: options.formerly } : {}) };
}

/** Every `.sql` file of a folder as a migration, in file-name order (`0001-…`, `0002-…`). */
export function sqlMigrations(folder: URL): NamedMigration[] {
  if (!folder.pathname.endsWith('/')) throw new Error(`${folder}: a folder's URL ends with /`);
  return readdirSync(folder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => sqlMigration(new URL(f, folder)));
}
