import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./fixtures/stop-at-once.ts', import.meta.url));

/** The JSON log lines the fixture process wrote while starting and stopping. */
async function linesWith(env: Record<string, string>): Promise<{ level: number; msg: string }[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [FIXTURE], {
    env: { PATH: process.env.PATH, ...env },
  });
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('runMain', () => {
  it('logs at info by default', async () => {
    const lines = await linesWith({});
    expect(lines.map((l) => l.msg)).toContain('stopping');
  });

  it('follows LOG_LEVEL, as the process configuration does', async () => {
    expect(await linesWith({ LOG_LEVEL: 'warn' })).toEqual([]);
  });
});
