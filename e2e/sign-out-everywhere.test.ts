import { randomUUID } from 'node:crypto';
import { type Gateway, startGateway } from '@coin/gateway';
import { apiClient, eventually, type Stack } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Mailbox, startMailbox } from './support/mailbox.ts';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let second: Gateway;
let mailbox: Mailbox;

const ME = '/api/v1/ufel/partners/me';
const KEYS = '/api/v1/ufel/partners/api-keys';
const SIGN_OUT = '/api/v1/ufel/partners/sign-out-everywhere';
const PASSWORD = '/api/v1/ufel/partners/password';
const REFRESH = '/api/v1/ufel/partners/refresh';
const RESET = '/api/v1/ufel/partners/password/reset';

beforeAll(async () => {
  mailbox = await startMailbox();
  stack = await stackWith(['identity'], { AUTH_RATE_LIMIT_MAX: '1000', SMTP_URL: mailbox.url });
  second = await startGateway({ ...stack.env, PORT: '0', READY_SERVICES: 'identity' });
});

afterAll(async () => {
  await second?.stop();
  await stack?.stop();
  await mailbox?.close();
});

async function anotherSession(p: RegisteredPartner) {
  const res = await stack.api.post('/api/v1/ufel/partners/login', { email: p.email, password: p.password });
  expect(res.status).toBe(200);
  return res.body.data.tokens as { accessToken: string; refreshToken: string };
}

async function newKey(p: RegisteredPartner): Promise<string> {
  const res = await stack.api.post(KEYS, { name: 'backend' }, { token: p.accessToken });
  expect(res.status).toBe(200);
  return res.body.data.key as string;
}

describe('signing out everywhere', () => {
  it('refuses every earlier access token on the other gateway within a second, and the API keys when asked', async () => {
    const p = await registerAndLogin(stack.api);
    const laptop = await anotherSession(p);
    const key = await newKey(p);
    const other = apiClient(second.url);
    // The other replica has verified and cached the laptop's token and the key.
    expect((await other.get(ME, { token: laptop.accessToken })).status).toBe(200);
    expect((await other.get(ME, { token: key })).status).toBe(200);

    const out = await stack.api.post(SIGN_OUT, { revokeApiKeys: true }, { token: p.accessToken });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ sessionsRevoked: 2, apiKeysRevoked: 1 });
    const signedOutAt = Date.now();

    const refused = await other.get(ME, { token: laptop.accessToken });
    const within = Date.now() - signedOutAt;
    expect(refused.status).toBe(401);
    expect(refused.body.data.error).toBe('access token has been revoked');
    expect(within).toBeLessThan(1000);
    expect((await other.get(ME, { token: key })).status).toBe(401);
    expect((await other.get(ME, { token: p.accessToken })).status).toBe(401);
    const refresh = await other.post('/api/v1/ufel/partners/refresh', { refreshToken: laptop.refreshToken });
    expect(refresh.status).toBe(401);
    console.log(`signed-out token refused by the other replica ${within} ms after signing out everywhere`);

    // A new login works, and the audit log names who did it.
    const again = await anotherSession(p);
    expect((await other.get(ME, { token: again.accessToken })).status).toBe(200);
    const audit = await stack.api.get('/api/v1/ufel/partners/audit-log', { token: again.accessToken });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body.data)).toContain('signOutEverywhere');
  });

  it('keeps the API keys unless asked, and refuses an API key', async () => {
    const p = await registerAndLogin(stack.api);
    const key = await newKey(p);
    const out = await stack.api.post(SIGN_OUT, {}, { token: p.accessToken });
    expect(out.status).toBe(200);
    expect(out.body.data.apiKeysRevoked).toBe(0);
    expect((await apiClient(second.url).get(ME, { token: key })).status).toBe(200);

    const asKey = await stack.api.post(SIGN_OUT, { revokeApiKeys: true }, { token: key });
    expect(asKey.status).toBe(403);
    expect((await stack.api.get(ME, { token: key })).status).toBe(200);
  });

  it('stops a revoked API key at once on the other gateway, which had cached it', async () => {
    const p = await registerAndLogin(stack.api);
    const created = await stack.api.post(KEYS, { name: 'soon revoked' }, { token: p.accessToken });
    const { id, key } = created.body.data as { id: string; key: string };
    const other = apiClient(second.url);
    expect((await other.get(ME, { token: key })).status).toBe(200);
    expect((await stack.api.delete(`${KEYS}/${id}`, { token: p.accessToken })).status).toBe(200);
    expect((await other.get(ME, { token: key })).status).toBe(401);
  });
});

describe('changing the password', () => {
  it('needs the present password, ends every other session at once and gives the caller new tokens', async () => {
    const p = await registerAndLogin(stack.api);
    const laptop = await anotherSession(p);
    const other = apiClient(second.url);
    expect((await other.get(ME, { token: laptop.accessToken })).status).toBe(200);

    const wrong = await stack.api.post(
      PASSWORD,
      { currentPassword: 'not the password', newPassword: 'a new long passphrase' },
      { token: p.accessToken },
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.data.appErrorCode).toBe('INVALID_PASSWORD');
    expect((await other.get(ME, { token: laptop.accessToken })).status).toBe(200);

    const changed = await stack.api.post(
      PASSWORD,
      { currentPassword: p.password, newPassword: 'a new long passphrase' },
      { token: p.accessToken },
    );
    expect(changed.status).toBe(200);
    const fresh = changed.body.data.tokens as { accessToken: string; refreshToken: string };
    expect((await other.get(ME, { token: laptop.accessToken })).status).toBe(401);
    expect((await other.get(ME, { token: p.accessToken })).status).toBe(401);
    expect((await stack.api.post(REFRESH, { refreshToken: laptop.refreshToken })).status).toBe(401);
    expect((await other.get(ME, { token: fresh.accessToken })).status).toBe(200);
    expect((await stack.api.post(REFRESH, { refreshToken: fresh.refreshToken })).status).toBe(200);

    const login = (password: string) =>
      stack.api.post('/api/v1/ufel/partners/login', { email: p.email, password });
    expect((await login(p.password)).status).toBe(401);
    expect((await login('a new long passphrase')).status).toBe(200);
  });

  it('is refused to an API key', async () => {
    const p = await registerAndLogin(stack.api);
    const key = await newKey(p);
    const res = await stack.api.post(
      PASSWORD,
      { currentPassword: p.password, newPassword: 'x'.repeat(12) },
      { token: key },
    );
    expect(res.status).toBe(403);
  });
});

describe('resetting the password by an e-mailed link', () => {
  it('answers an unknown e-mail as a known one; the link works once and ends every session', async () => {
    const p = await registerAndLogin(stack.api);
    const other = apiClient(second.url);
    expect((await other.get(ME, { token: p.accessToken })).status).toBe(200);

    const asked = await stack.api.post(RESET, { email: p.email });
    const unknown = await stack.api.post(RESET, { email: `nobody-${randomUUID()}@example.com` });
    expect(asked.status).toBe(200);
    expect(unknown.status).toBe(asked.status);
    expect(unknown.body).toEqual(asked.body);
    const mail = await eventually(async () =>
      mailbox.received.find((m) => m.to.includes(p.email.toLowerCase())),
    );
    // The mail is quoted-printable: its soft line breaks are dropped first.
    const token = /Reset token: (\S+)/.exec(mail.raw.replace(/=\r?\n/g, ''))![1];

    const confirm = () => stack.api.post(`${RESET}/confirm`, { token, newPassword: 'reset long passphrase' });
    const confirmed = await confirm();
    expect(confirmed.body.data, token).toEqual(expect.objectContaining({ memberId: expect.any(String) }));
    expect(confirmed.status).toBe(200);
    expect((await other.get(ME, { token: p.accessToken })).status).toBe(401);
    expect((await stack.api.post(REFRESH, { refreshToken: p.refreshToken })).status).toBe(401);
    const again = await confirm();
    expect(again.status).toBe(422);
    expect(again.body.data.appErrorCode).toBe('INVALID_TOKEN');

    const login = (password: string) =>
      stack.api.post('/api/v1/ufel/partners/login', { email: p.email, password });
    expect((await login(p.password)).status).toBe(401);
    expect((await login('reset long passphrase')).status).toBe(200);
  });
});
