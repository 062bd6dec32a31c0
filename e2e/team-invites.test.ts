import { randomUUID } from 'node:crypto';
import { type Stack, withDatabase } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

const TEAM = '/api/v1/ufel/partners';
const PASSWORD = 'a member password 123';
const DEAD_LINK = 'the invitation link is invalid, used, revoked or expired';

let stack: Stack;
let owner: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity'], { AUTH_RATE_LIMIT_MAX: '1000' });
  owner = await registerAndLogin(stack.api);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

async function invite(role = 'viewer') {
  const email = `invited-${randomUUID()}@example.com`;
  const res = await stack.api.post(`${TEAM}/invites`, { email, role }, { token: owner.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...res.body.data, email, token: new URL(res.body.data.acceptUrl).hash.replace(/^#token=/, '') };
}

const accept = (token: string) =>
  stack.api.post(`${TEAM}/invites/accept`, { token, password: PASSWORD, confirmPassword: PASSWORD });

describe('invitations', () => {
  it('stores only the hash of the link, and a link stops working once expired, revoked or replaced', async () => {
    const expired = await invite();
    const [row] = (
      await withDatabase(stack.env.IDENTITY_DATABASE_URL!, (c) =>
        c.query('UPDATE member_invites SET expires_at = now() WHERE id = $1 RETURNING token_hash', [
          expired.id,
        ]),
      )
    ).rows;
    expect(row.token_hash).not.toContain(expired.token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await accept(expired.token)).body.data.error).toBe(DEAD_LINK);

    const revoked = await invite();
    expect(
      (await stack.api.delete(`${TEAM}/invites/${revoked.id}`, { token: owner.accessToken })).status,
    ).toBe(200);
    expect((await accept(revoked.token)).status).toBe(404);

    const first = await invite('support');
    const second = await stack.api.post(
      `${TEAM}/invites`,
      { email: first.email, role: 'finance' },
      { token: owner.accessToken },
    );
    expect((await accept(first.token)).status).toBe(404);
    const joined = await accept(new URL(second.body.data.acceptUrl).hash.replace(/^#token=/, ''));
    expect(joined.body.data).toMatchObject({ email: first.email, role: 'finance' });

    const open = await stack.api.get(`${TEAM}/invites`, { token: owner.accessToken });
    expect(open.body.data.data.map((i: { email: string }) => i.email)).not.toContain(first.email);
  });

  it('refuses to invite an e-mail that is already a member, and a bad role', async () => {
    const taken = await stack.api.post(
      `${TEAM}/invites`,
      { email: owner.email, role: 'viewer' },
      { token: owner.accessToken },
    );
    expect(taken.status).toBe(409);
    const bad = await stack.api.post(
      `${TEAM}/invites`,
      { email: 'x@example.com', role: 'god' },
      { token: owner.accessToken },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.data.error).toContain('role');
  });
});
