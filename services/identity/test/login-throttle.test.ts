import { randomUUID } from 'node:crypto';
import { identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { type ServiceAlone, startServiceAlone } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentity } from '../src/service.ts';

const LOCK_SECONDS = 2;
let svc: ServiceAlone;

beforeAll(async () => {
  svc = await startServiceAlone('identity', startIdentity, {
    LOGIN_MAX_FAILURES: '5',
    LOGIN_LOCK_SECONDS: String(LOCK_SECONDS),
  });
});

afterAll(async () => {
  await svc?.stop();
});

const password = 'correct horse battery staple';

async function registered(): Promise<string> {
  const email = `p-${randomUUID()}@example.com`;
  await svc.call(identity.registerPartner, {
    body: {
      applicationName: 'Throttle test',
      redirectUrl: 'https://partner.example/r',
      webRedirectUrl: 'https://partner.example/w',
      mobileRedirectUrl: 'partner://cb',
      email,
      partnerName: 'Throttle Test Ltd',
      password,
      confirmPassword: password,
      userDetailsUrl: 'https://partner.example/users',
    },
  });
  return email;
}

async function attempt(email: string, pw: string) {
  try {
    await svc.call(identity.login, { body: { email, password: pw } });
    return { status: 200, retryAfter: undefined };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, retryAfter: err.details.retryAfterSeconds };
  }
}

const wrongBurst = (email: string, n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => attempt(email, `wrong-${i}`)));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('login throttling per e-mail', () => {
  it('evaluates at most 5 of 20 concurrent wrong passwords; the rest are refused before the check', async () => {
    const email = await registered();
    const statuses = (await wrongBurst(email, 20)).map((r) => r.status);
    console.log(
      `20 concurrent wrong passwords for one e-mail: ${statuses.filter((s) => s === 401).length} evaluated (401), ${statuses.filter((s) => s === 429).length} refused before the check (429)`,
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect((await attempt(email.toUpperCase(), password)).status).toBe(429);
  });

  it('doubles the lock after a window that ended full, and a correct password afterwards starts afresh', async () => {
    const email = await registered();
    await wrongBurst(email, 6);
    const first = await attempt(email, password);
    expect(first.status).toBe(429);
    expect(first.retryAfter).toBeLessThanOrEqual(LOCK_SECONDS);

    await sleep(LOCK_SECONDS * 1000 + 100);
    await wrongBurst(email, 6);
    const second = await attempt(email, password);
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBeGreaterThan(LOCK_SECONDS);

    await sleep(second.retryAfter! * 1000 + 100);
    expect((await attempt(email, password)).status).toBe(200);
    const afresh = await wrongBurst(email, 5);
    expect(afresh.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
  });
});
