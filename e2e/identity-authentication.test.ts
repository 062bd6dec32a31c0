import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { eventuallyPasses } from '@coin/testing';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectFailure, stack, useIdentityStack } from './support/identity-suite.ts';
import { registerAndLogin } from './support/partners.ts';
import { activeSigningKey } from './support/signing-keys.ts';

useIdentityStack();

describe('bearer authentication', () => {
  const claims = (partnerId: string) =>
    new SignJWT({ typ: 'access' })
      .setSubject(partnerId)
      .setIssuer('coin-rewards/identity')
      .setAudience('coin-rewards/api')
      .setIssuedAt();

  it('refuses a missing, garbage, expired, wrongly signed and alg:none token with 401', async () => {
    const p = await registerAndLogin(stack.api);
    const me = (token?: string, headers?: Record<string, string>) =>
      stack.api.get('/api/v1/ufel/partners/me', { token, headers });

    expectFailure(await me(), 401, 'UNAUTHORIZED');
    expectFailure(await me('garbage.token.here'), 401, 'UNAUTHORIZED');
    expectFailure(
      await me(undefined, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
      401,
      'UNAUTHORIZED',
    );

    const { kid, privateKey: realKey } = await activeSigningKey(stack.env);
    const expired = await claims(p.partnerId)
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(realKey);
    const expiredRes = await me(expired);
    expectFailure(expiredRes, 401, 'UNAUTHORIZED', 'access token has expired');

    const { privateKey: otherKey } = generateKeyPairSync('ed25519');
    const forged = await claims(p.partnerId)
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setExpirationTime('5m')
      .sign(otherKey);
    expectFailure(await me(forged), 401, 'UNAUTHORIZED');

    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({
      typ: 'access',
      sub: p.partnerId,
      iss: 'coin-rewards/identity',
      aud: 'coin-rewards/api',
      exp: Math.floor(Date.now() / 1000) + 300,
    })}.`;
    expectFailure(await me(none), 401, 'UNAUTHORIZED');

    // The same claims with the real key pass: the refusals above are about the token, not the claims.
    const valid = await claims(p.partnerId)
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .setExpirationTime('5m')
      .sign(realKey);
    expect((await me(valid)).status).toBe(200);
  });

  it('accepts a secret API key as Bearer, lists it without the secret, and refuses it once revoked', async () => {
    const p = await registerAndLogin(stack.api);
    const created = await stack.api.post(
      '/api/v1/ufel/partners/api-keys',
      { name: 'server' },
      { token: p.accessToken },
    );
    expect(created.status).toBe(200);
    const key: string = created.body.data.key;
    expect(key).toMatch(/^ck_live_/);

    const me = await stack.api.get('/api/v1/ufel/partners/me', { token: key });
    expect(me.status).toBe(200);
    expect(me.body.data.partnerId).toBe(p.partnerId);

    const list = await stack.api.get('/api/v1/ufel/partners/api-keys', { token: p.accessToken });
    expect(list.body.data.data).toHaveLength(1);
    expect(list.text).not.toContain(key);
    expect(list.body.data.data[0].lastUsedAt).not.toBeNull();

    const other = await registerAndLogin(stack.api);
    const foreign = await stack.api.delete(`/api/v1/ufel/partners/api-keys/${created.body.data.id}`, {
      token: other.accessToken,
    });
    expectFailure(foreign, 404, 'NOT_FOUND');

    const revoked = await stack.api.delete(`/api/v1/ufel/partners/api-keys/${created.body.data.id}`, {
      token: p.accessToken,
    });
    expect(revoked.status).toBe(200);
    expectFailure(await stack.api.get('/api/v1/ufel/partners/me', { token: key }), 401, 'UNAUTHORIZED');
    expect(createHash('sha256').update(key).digest('hex')).not.toBe(key);
  });

  it('returns the webhook secret with the whsec_ prefix and keeps it across URL changes', async () => {
    const p = await registerAndLogin(stack.api);
    const first = await stack.api.put(
      '/api/v1/ufel/partners/webhook',
      { url: 'https://partner.example/hook' },
      { token: p.accessToken },
    );
    expect(first.status).toBe(200);
    expect(first.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const second = await stack.api.put(
      '/api/v1/ufel/partners/webhook',
      { url: 'https://partner.example/hook2' },
      { token: p.accessToken },
    );
    // A URL change keeps the secret and does not show it: it is shown once, when created or rotated.
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ url: 'https://partner.example/hook2', events: expect.any(Array) });
    expect(second.text).not.toContain(first.body.data.secret);
    const rotated = await stack.api.post('/api/v1/ufel/partners/webhook/secret', undefined, {
      token: p.accessToken,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(first.body.data.secret);
    // Rotation is a credential change: not through the URL call, and never with an API key.
    const viaUrl = await stack.api.put(
      '/api/v1/ufel/partners/webhook',
      { url: 'https://partner.example/hook2', rotateSecret: true },
      { token: p.accessToken },
    );
    expect(viaUrl.status).toBe(400);
    const key = await stack.api.post(
      '/api/v1/ufel/partners/api-keys',
      { name: 'k' },
      { token: p.accessToken },
    );
    const byKey = await stack.api.post('/api/v1/ufel/partners/webhook/secret', undefined, {
      token: key.body.data.key,
    });
    expect(byKey.status).toBe(403);
    expectFailure(
      await stack.api.put('/api/v1/ufel/partners/webhook', { url: 'ftp://x' }, { token: p.accessToken }),
      400,
      'Bad request',
      'url must be a valid http(s) URL',
    );
  });
});

describe('bad input never yields a 5xx', () => {
  it('answers malformed JSON, a non-object body, wrong content types and unknown routes with envelopes', async () => {
    const bad = await stack.api.post('/api/v1/ufel/partners/login', undefined, { raw: '{"email": ' });
    expectFailure(bad, 400, 'Bad request', 'body must be valid JSON');
    const arr = await stack.api.post('/api/v1/ufel/partners/login', [1, 2]);
    expectFailure(arr, 400, 'Bad request', 'body must be an object');
    const text = await stack.api.post('/api/v1/ufel/partners/login', undefined, {
      raw: 'email=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.status).toBe('failed');
    const missing = await stack.api.post('/api/v1/ufel/partners/login');
    // No body is validated as `{}`, so the answer names every missing field.
    expectFailure(missing, 400, 'Bad request', 'email is required; password is required');
    const unknown = await stack.api.get(`/api/v1/nothing-here/${randomUUID()}`);
    expectFailure(unknown, 404, 'NOT_FOUND');
    const badParam = await stack.api.delete('/api/v1/ufel/partners/api-keys/not-a-guid', {
      token: (await registerAndLogin(stack.api)).accessToken,
    });
    expectFailure(badParam, 400, 'Bad request', 'id must be a valid GUID');
  });
});

describe('operations', () => {
  it('publishes an OpenAPI document generated from the contracts', async () => {
    const res = await stack.api.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.paths['/api/v1/ufel/partners'].post.operationId).toBe('registerPartner');
    expect(res.body.paths['/api/v1/ufel/partners/login'].post.requestBody).toBeDefined();
  });

  it('lists the replicas in /ready; with identity stopped, calls get 503 fast and /ready fails', async () => {
    const ready = await stack.api.get('/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.services.identity.length).toBeGreaterThanOrEqual(1);
    expect(ready.body.data.services.identity[0]).toMatchObject({ name: 'identity', version: '1.0.0' });

    await stack.stopService('identity');
    try {
      const began = Date.now();
      const res = await stack.api.post('/api/v1/ufel/partners/login', {
        email: 'a@example.com',
        password: 'whatever',
      });
      const elapsed = Date.now() - began;
      expectFailure(res, 503, 'SERVICE_UNAVAILABLE');
      expect(elapsed).toBeLessThan(Number(stack.env.REQUEST_TIMEOUT_MS ?? 5000));
      // The gateway reuses one readiness check for a second, so the change shows within about that.
      await eventuallyPasses(async () => {
        const notReady = await stack.api.get('/ready');
        expect(notReady.status).toBe(503);
        expect(notReady.body.data.error).toContain('identity');
      });
      expect((await stack.api.get('/health')).status).toBe(200);
    } finally {
      await stack.startService('identity');
    }
    await eventuallyPasses(async () => expect((await stack.api.get('/ready')).status).toBe(200));
  });
});
