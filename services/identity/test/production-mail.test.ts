import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { identityConfig } from '../src/config.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs identity's entry point as a deployment would, and collects what it says until it exits. */
function runIdentity(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['services/identity/src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    });
  });
}

describe('identity in production mode needs SMTP_URL (account users get their one-time code by e-mail)', () => {
  it('refuses to start without it, naming the variable, before touching a database', async () => {
    const { code, output } = await runIdentity({
      APP_MODE: 'production',
      // Nothing listens here: had start-up gone further, the failure would be another one.
      IDENTITY_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/coin_identity',
    });
    expect(code).not.toBe(0);
    expect(output).toContain('SMTP_URL: is required in production mode');
  });

  it('accepts production mode with an SMTP URL, and development mode without one', () => {
    expect(
      identityConfig({
        APP_MODE: 'production',
        SMTP_URL: 'smtps://u:p@smtp.example.com:465',
        KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      }).SMTP_URL,
    ).toBe('smtps://u:p@smtp.example.com:465');
    expect(identityConfig({ APP_MODE: 'development' }).SMTP_URL).toBeUndefined();
    expect(() => identityConfig({ APP_MODE: 'production' })).toThrow(
      /SMTP_URL: is required in production mode/,
    );
  });
});
