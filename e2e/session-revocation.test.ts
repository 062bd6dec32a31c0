import { type Gateway, startGateway } from '@coin/gateway';
import { apiClient, type Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let second: Gateway;

const ME = '/api/v1/ufel/partners/me';

beforeAll(async () => {
  stack = await stackWith(['identity'], { AUTH_RATE_LIMIT_MAX: '1000' });
  second = await startGateway({ ...stack.env, PORT: '0', READY_SERVICES: 'identity' });
});

afterAll(async () => {
  await second?.stop();
  await stack?.stop();
});

describe('logout across gateway replicas', () => {
  it('refuses a logged-out access token within a second on another replica, even one that cached it', async () => {
    const p = await registerAndLogin(stack.api);
    const other = apiClient(second.url);
    // Both replicas have verified and cached the token.
    expect((await stack.api.get(ME, { token: p.accessToken })).status).toBe(200);
    expect((await other.get(ME, { token: p.accessToken })).status).toBe(200);

    const out = await stack.api.post('/api/v1/ufel/partners/logout', {}, { token: p.accessToken });
    expect(out.status).toBe(200);
    const loggedOutAt = Date.now();

    const refused = await other.get(ME, { token: p.accessToken });
    const within = Date.now() - loggedOutAt;
    expect(refused.status).toBe(401);
    expect(refused.body.data.error).toBe('access token has been revoked');
    expect(within).toBeLessThan(1000);
    expect((await stack.api.get(ME, { token: p.accessToken })).status).toBe(401);
    console.log(`logged-out token refused by the other replica ${within} ms after the logout`);

    // Another session of the same partner is not affected.
    const again = await stack.api.post('/api/v1/ufel/partners/login', {
      email: p.email,
      password: p.password,
    });
    expect((await other.get(ME, { token: again.body.data.tokens.accessToken })).status).toBe(200);
  });
});
