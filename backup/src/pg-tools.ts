import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `pg_dump -Fc`: one REPEATABLE READ snapshot of the whole database, compressed, restorable table by table. */
export async function pgDump(url: string, file: string): Promise<void> {
  await run('pg_dump', [
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    `--file=${file}`,
    `--dbname=${url}`,
  ]);
}

/** Into an empty database; stops at the first error rather than leave a half-restored one. */
export async function pgRestore(url: string, file: string): Promise<void> {
  await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, file]);
}

export async function pgDumpVersion(): Promise<string> {
  const { stdout } = await run('pg_dump', ['--version']);
  return stdout.trim();
}
