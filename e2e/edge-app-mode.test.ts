import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerBody, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * Runs a process's entry point as a deployment would, with no APP_MODE at all, and what it says
 * until it exits; one that starts anyway is killed after a while (and the test sees it ran).
 */
function runWithoutMode(main: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'info' };
  delete env.APP_MODE;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, output });
    });
  });
}

describe('a process without APP_MODE', () => {
  it('refuses to start, the gateway and a service alike, saying what to set', async () => {
    for (const main of ['services/gateway/src/main.ts', 'services/identity/src/main.ts']) {
      const { code, output } = await runWithoutMode(main);
      expect(code, main).not.toBe(0);
      expect(code, main).not.toBeNull();
      expect(output, main).toContain('APP_MODE: is required');
      expect(output, main).not.toContain('listening');
    }
  });
});

describe('production mode', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await stackWith(['identity'], {
      APP_MODE: 'production',
      AUTH_RATE_LIMIT_MAX: '1000',
      // Nothing is mailed here: the URL only has to be there.
      SMTP_URL: 'smtp://127.0.0.1:1',
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('reaches none of the development-only behaviours', async () => {
    // Metrics and the detailed readiness report are not on the public port.
    expect((await stack.api.get('/metrics')).status).toBe(404);
    const ready = await stack.api.get('/ready');
    expect(ready.text).not.toContain('identity');
    // The dashboard's session cookie is Secure.
    const body = partnerBody();
    expect((await stack.api.post('/api/v1/ufel/partners', body)).status).toBe(200);
    const session = await stack.api.post('/dashboard/session', {
      email: body.email,
      password: body.password,
    });
    expect(session.status).toBe(200);
    expect(String(session.headers['set-cookie'])).toMatch(/; Secure/);
    // Loopback partner URLs are refused.
    const p = await registerAndLogin(stack.api);
    const hook = await stack.api.put(
      '/api/v1/ufel/partners/webhook',
      { url: 'http://127.0.0.1/hook' },
      { token: p.accessToken },
    );
    expect(hook.status).toBe(400);
  });
});
