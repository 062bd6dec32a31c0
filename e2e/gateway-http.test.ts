import type { Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await stackWith(['identity'], { AUTH_RATE_LIMIT_MAX: '1000' });
});

afterAll(async () => {
  await stack?.stop();
});

describe('gateway HTTP behaviour', () => {
  it('logs out without a body, and with an empty JSON body, revoking every refresh token', async () => {
    const p = await registerAndLogin(stack.api);
    const bare = await stack.api.post('/api/v1/ufel/partners/logout', undefined, { token: p.accessToken });
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ status: 'success', message: 'logged out' });
    const refresh = await stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: p.refreshToken });
    expect(refresh.status).toBe(401);

    const q = await registerAndLogin(stack.api);
    const empty = await stack.api.post('/api/v1/ufel/partners/logout', undefined, {
      token: q.accessToken,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(200);
  });

  it('names the missing fields when a body that needs some is absent', async () => {
    const res = await stack.api.post('/api/v1/ufel/partners/login', undefined);
    expect(res.status).toBe(400);
    expect(res.body.data).toMatchObject({
      appErrorCode: 'Bad request',
      error: expect.stringMatching(/^email /),
    });
  });

  it('answers a wrong method on a known path with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const del = await stack.api.delete('/api/v1/ufel/partners/login');
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe('POST');
    expect(del.body).toEqual({
      status: 'failed',
      message: 'method not allowed',
      data: {
        errorType: 'invalid',
        appErrorCode: 'METHOD_NOT_ALLOWED',
        error: 'DELETE is not allowed on /api/v1/ufel/partners/login; use POST',
      },
    });
    const key = await stack.api.put('/api/v1/ufel/partners/api-keys/3f1c4c36-8a59-4c53-9d3e-0e3d1b1b3b3b');
    expect(key.status).toBe(405);
    expect(key.headers.allow).toBe('DELETE');
    const createRule = await stack.api.delete('/api/v1/laas/rules/create-rule');
    expect(createRule.headers.allow).toBe('GET, POST');
    const unknown = await stack.api.get('/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('sends WWW-Authenticate with every 401: the scheme without a token, invalid_token with a bad one', async () => {
    const none = await stack.api.get('/api/v1/ufel/partners/me');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="coin-rewards"');
    const bad = await stack.api.get('/api/v1/ufel/partners/me', { token: 'nope' });
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer realm="coin-rewards", error="invalid_token"');
  });

  it('keeps the dashboard session in a rotating HttpOnly cookie: refresh spends it, sign-out ends it', async () => {
    const p = await registerAndLogin(stack.api);
    const none = await stack.api.post('/dashboard/session/refresh');
    expect(none.status).toBe(401);
    expect(none.body.data.appErrorCode).toBe('UNAUTHORIZED');

    const signIn = await stack.api.post('/dashboard/session', { email: p.email, password: p.password });
    expect(signIn.status).toBe(200);
    expect(signIn.body.data.accessToken).toEqual(expect.any(String));
    expect(JSON.stringify(signIn.body)).not.toContain('refreshToken');
    const cookie = String(signIn.headers['set-cookie']);
    expect(cookie).toMatch(
      /^coin_refresh=[^;]+; Max-Age=\d+; Path=\/dashboard\/session; HttpOnly; SameSite=Strict$/,
    );
    const first = cookie.split(';')[0];

    const refreshed = await stack.api.post('/dashboard/session/refresh', undefined, {
      headers: { cookie: first },
    });
    expect(refreshed.status).toBe(200);
    const second = String(refreshed.headers['set-cookie']).split(';')[0];
    expect(second).not.toBe(first);
    // The spent cookie again: refused, and the whole session is revoked with it (reuse means theft).
    const reused = await stack.api.post('/dashboard/session/refresh', undefined, {
      headers: { cookie: first },
    });
    expect(reused.status).toBe(401);
    const after = await stack.api.post('/dashboard/session/refresh', undefined, {
      headers: { cookie: second },
    });
    expect(after.status).toBe(401);

    const again = await stack.api.post('/dashboard/session', { email: p.email, password: p.password });
    const third = String(again.headers['set-cookie']).split(';')[0];
    const out = await stack.api.delete('/dashboard/session', {
      token: again.body.data.accessToken,
      headers: { cookie: third },
    });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^coin_refresh=;/);
    const gone = await stack.api.post('/dashboard/session/refresh', undefined, {
      headers: { cookie: third },
    });
    expect(gone.status).toBe(401);
  });
});
