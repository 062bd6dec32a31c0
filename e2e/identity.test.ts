import { describe, expect, it } from 'vitest';
import { expectFailure, stack, useIdentityStack } from './support/identity-suite.ts';
import { partnerBody, registerAndLogin } from './support/partners.ts';

useIdentityStack();

describe('partner registration', () => {
  it('returns exactly the Partner shape, without password fields', async () => {
    const body = partnerBody();
    const res = await stack.api.post('/api/v1/ufel/partners', body);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(typeof res.body.message).toBe('string');
    const p = res.body.data;
    expect(Object.keys(p).sort()).toEqual(
      [
        'id',
        'partnerId',
        'applicationName',
        'clientId',
        'redirectUrl',
        'webRedirectUrl',
        'mobileRedirectUrl',
        'email',
        'partnerName',
        'userDetailsUrl',
      ].sort(),
    );
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.partnerId).toMatch(/^[0-9a-f-]{36}$/);
    // One partner id: `id` is the `partnerId` other calls expect (docs/partners/authentication-and-scopes.md).
    expect(p.id).toBe(p.partnerId);
    expect(p.clientId).toMatch(/^[0-9a-f]{64}$/);
    expect(p.email).toBe(body.email);
    expect(p.applicationName).toBe(body.applicationName);
    expect(p.userDetailsUrl).toBe(body.userDetailsUrl);
    expect(res.text).not.toContain(body.password);
  });

  it('names a missing applicationName with the specification envelope', async () => {
    const { applicationName: _omit, ...body } = partnerBody();
    const res = await stack.api.post('/api/v1/ufel/partners', body);
    expect(res.body).toEqual({
      status: 'failed',
      message: 'invalid data provided',
      data: { errorType: 'invalid', appErrorCode: 'Bad request', error: 'applicationName is required' },
    });
    expect(res.status).toBe(400);
  });

  it('refuses passwords that differ, a bad e-mail and wrong types, naming the field', async () => {
    expectFailure(
      await stack.api.post(
        '/api/v1/ufel/partners',
        partnerBody({ confirmPassword: 'something else entirely' }),
      ),
      400,
      'Bad request',
      'confirmPassword must match password',
    );
    expectFailure(
      await stack.api.post('/api/v1/ufel/partners', partnerBody({ email: 'not-an-email' })),
      400,
      'Bad request',
      'email must be a valid email',
    );
    expectFailure(
      await stack.api.post('/api/v1/ufel/partners', partnerBody({ partnerName: 42 })),
      400,
      'Bad request',
      'partnerName must be a string',
    );
  });

  it('refuses a second partner with the same e-mail (409)', async () => {
    const body = partnerBody();
    expect((await stack.api.post('/api/v1/ufel/partners', body)).status).toBe(200);
    expectFailure(
      await stack.api.post('/api/v1/ufel/partners', { ...body, email: body.email.toUpperCase() }),
      409,
      'DUPLICATE',
    );
  });
});

describe('login and tokens', () => {
  it('returns tokens and the user shape exactly', async () => {
    const body = partnerBody();
    const reg = await stack.api.post('/api/v1/ufel/partners', body);
    const res = await stack.api.post('/api/v1/ufel/partners/login', {
      email: body.email,
      password: body.password,
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    const { tokens, user } = res.body.data;
    expect(Object.keys(res.body.data).sort()).toEqual(['tokens', 'user']);
    expect(Object.keys(tokens).sort()).toEqual(['accessToken', 'refreshToken']);
    expect(typeof tokens.accessToken).toBe('string');
    expect(typeof tokens.refreshToken).toBe('string');
    expect(Object.keys(user).sort()).toEqual(['clientId', 'createdAt', 'email', 'id', 'name', 'userUrl']);
    expect(user.id).toBe(reg.body.data.id);
    expect(user.clientId).toBe(reg.body.data.clientId);
    expect(user.name).toBe(body.partnerName);
    expect(user.userUrl).toBe(body.userDetailsUrl);
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
  });

  it('says email must be a valid email, and 401 for a wrong password', async () => {
    expectFailure(
      await stack.api.post('/api/v1/ufel/partners/login', { email: 'nope', password: 'x' }),
      400,
      'Bad request',
      'email must be a valid email',
    );
    const p = await registerAndLogin(stack.api);
    expectFailure(
      await stack.api.post('/api/v1/ufel/partners/login', { email: p.email, password: 'wrong password' }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('answers 429 with Retry-After after repeated failed logins, even with the right password', async () => {
    const p = await registerAndLogin(stack.api);
    for (let i = 0; i < 5; i++) {
      const res = await stack.api.post('/api/v1/ufel/partners/login', {
        email: p.email,
        password: `wrong-${i}`,
      });
      expect(res.status).toBe(401);
    }
    const locked = await stack.api.post('/api/v1/ufel/partners/login', {
      email: p.email,
      password: p.password,
    });
    expectFailure(locked, 429, 'RATE_LIMITED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('serves me with the access token', async () => {
    const p = await registerAndLogin(stack.api);
    const me = await stack.api.get('/api/v1/ufel/partners/me', { token: p.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data.partnerId).toBe(p.partnerId);
    expect(me.body.data.email).toBe(p.email);
  });

  it('rotates refresh tokens; a spent one is refused and revokes its family', async () => {
    const p = await registerAndLogin(stack.api);
    const first = await stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: p.refreshToken });
    expect(first.status).toBe(200);
    const rotated = first.body.data.tokens;
    expect(rotated.refreshToken).not.toBe(p.refreshToken);
    const me = await stack.api.get('/api/v1/ufel/partners/me', { token: rotated.accessToken });
    expect(me.status).toBe(200);

    expectFailure(
      await stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: p.refreshToken }),
      401,
      'UNAUTHORIZED',
    );
    // The reuse revoked the family: the token issued by the rotation no longer works either.
    expectFailure(
      await stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: rotated.refreshToken }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('lets only one of two concurrent uses of a refresh token succeed', async () => {
    const p = await registerAndLogin(stack.api);
    const results = await Promise.all(
      [1, 2].map(() => stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: p.refreshToken })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('revokes refresh tokens at logout', async () => {
    const p = await registerAndLogin(stack.api);
    const out = await stack.api.post('/api/v1/ufel/partners/logout', {}, { token: p.accessToken });
    expect(out.status).toBe(200);
    expectFailure(
      await stack.api.post('/api/v1/ufel/partners/refresh', { refreshToken: p.refreshToken }),
      401,
      'UNAUTHORIZED',
    );
  });
});
