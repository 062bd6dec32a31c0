import { randomUUID } from 'node:crypto';
import { eventuallyPasses, type Stack, withDatabase } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { TO_USER, transfer } from './support/wallet.ts';

const TEAM = '/api/v1/ufel/partners';
const PASSWORD = 'a member password 123';

let stack: Stack;
let owner: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'rules'], { AUTH_RATE_LIMIT_MAX: '1000' });
  owner = await registerAndLogin(stack.api);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

interface Member {
  id: string;
  email: string;
  token: string;
  refreshToken: string;
}

function tokenOf(acceptUrl: string): string {
  return new URL(acceptUrl).hash.replace(/^#token=/, '');
}

/** Invites `role` as `by`, accepts the link with a password and logs the new member in. */
async function join(by: string, role: string): Promise<Member & { acceptUrl: string }> {
  const email = `${role}-${randomUUID()}@example.com`;
  const invited = await stack.api.post(`${TEAM}/invites`, { email, role }, { token: by });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const { acceptUrl } = invited.body.data;
  const accepted = await stack.api.post(`${TEAM}/invites/accept`, {
    token: tokenOf(acceptUrl),
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  expect(accepted.body.data).toMatchObject({ email, role, partnerId: owner.partnerId });
  const login = await stack.api.post(`${TEAM}/login`, { email, password: PASSWORD });
  expect(login.status).toBe(200);
  // The partner's id stays login's `user.id`: a member's client passes it as every partner's does.
  expect(login.body.data.user).toMatchObject({ id: owner.partnerId, email });
  return {
    id: accepted.body.data.id,
    email,
    token: login.body.data.tokens.accessToken,
    refreshToken: login.body.data.tokens.refreshToken,
    acceptUrl,
  };
}

async function auditLog(token: string, query: Record<string, string> = {}) {
  const res = await stack.api.get(`${TEAM}/audit-log`, { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { data: any[]; nextCursor: string | null };
}

describe('a team', () => {
  let finance: Member;
  let support: Member;

  it('an owner invites a finance and a support member; each link works once', async () => {
    const me = await stack.api.get(`${TEAM}/members/me`, { token: owner.accessToken });
    expect(me.body.data).toMatchObject({ email: owner.email, role: 'owner' });
    const joined = await join(owner.accessToken, 'finance');
    finance = joined;
    support = await join(owner.accessToken, 'support');

    const again = await stack.api.post(`${TEAM}/invites/accept`, {
      token: tokenOf(joined.acceptUrl),
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(again.status).toBe(404);
    expect(again.body.data.error).toBe('the invitation link is invalid, used, revoked or expired');

    const members = await stack.api.get(`${TEAM}/members`, { token: owner.accessToken });
    expect(members.body.data.data.map((m: { role: string }) => m.role).sort()).toEqual([
      'finance',
      'owner',
      'support',
    ]);
  });

  it('finance reverses a transfer and sets the issuance limit; support reads the user but may not reverse', async () => {
    const [userId] = await onboardUsers(stack.api, owner.accessToken, 1);
    const credit = await transfer(stack.api, TO_USER, owner.accessToken, { userId, coins: 30 });
    expect(credit.status).toBe(200);
    const entryId = credit.body.data.coinsLedger.id;

    const refused = await stack.api.post(
      '/api/v1/laas/coins/reverse',
      { ledgerEntryId: entryId, reason: 'support tried' },
      { token: support.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.data).toMatchObject({ appErrorCode: 'FORBIDDEN' });
    expect(refused.body.data.error).toContain("'coins'");
    const read = await stack.api.get(`/api/v1/laas/users/${userId}`, { token: support.token });
    expect(read.status).toBe(200);

    const reversed = await stack.api.post(
      '/api/v1/laas/coins/reverse',
      { ledgerEntryId: entryId, reason: 'sent to the wrong user' },
      { token: finance.token, headers: { 'idempotency-key': randomUUID() } },
    );
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    const limit = await stack.api.put(
      '/api/v1/laas/coins/treasury',
      { issuanceLimit: 5000 },
      { token: finance.token },
    );
    expect(limit.status, JSON.stringify(limit.body)).toBe(200);

    // Wallet's entries arrive through its outbox and identity's consumer: within moments.
    await eventuallyPasses(async () => {
      const byFinance = await auditLog(owner.accessToken, { actor: finance.id });
      expect(byFinance.data.map((e) => e.action)).toEqual(['setTreasury', 'reverseTransfer', 'acceptInvite']);
      for (const e of byFinance.data)
        expect(e.actor).toMatchObject({ memberId: finance.id, email: finance.email });
      expect(byFinance.data[0]).toMatchObject({ details: { from: null, to: 5000 } });
      expect(byFinance.data[1].details).toMatchObject({
        ledgerEntryId: entryId,
        reason: 'sent to the wrong user',
      });
      expect(byFinance.data[1].clientIp).toEqual(expect.any(String));
    });
    const invites = await auditLog(owner.accessToken, { action: 'inviteMember' });
    expect(invites.data.map((e) => e.details.role)).toEqual(['support', 'finance']);
    for (const e of invites.data) expect(e.actor.email).toBe(owner.email);
  });

  it('pages the log with a cursor, newest first, and filters by time', async () => {
    const first = await auditLog(owner.accessToken, { limit: '2' });
    expect(first.data).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const rest = await auditLog(owner.accessToken, { limit: '100', cursor: first.nextCursor! });
    const ids = [...first.data, ...rest.data].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rest.nextCursor).toBeNull();
    const future = await auditLog(owner.accessToken, { from: new Date(Date.now() + 60_000).toISOString() });
    expect(future.data).toEqual([]);
    const bad = await stack.api.get(`${TEAM}/audit-log`, {
      token: owner.accessToken,
      query: { cursor: 'x' },
    });
    expect(bad.status).toBe(400);
  });

  it('support may read neither the team nor the audit log', async () => {
    const team = await stack.api.get(`${TEAM}/members`, { token: support.token });
    expect(team.status).toBe(403);
    expect(team.body.data.error).toContain("'team'");
    const log = await stack.api.get(`${TEAM}/audit-log`, { token: support.token });
    expect(log.status).toBe(403);
    expect(log.body.data.error).toContain("'audit'");
  });

  it('records credential, webhook, rule and tier changes, by a member or by an API key', async () => {
    const key = await stack.api.post(`${TEAM}/api-keys`, { name: 'backend' }, { token: owner.accessToken });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const hook = await stack.api.put(
      `${TEAM}/webhook`,
      { url: 'https://partner.example/hooks' },
      { token: owner.accessToken },
    );
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const rule = await stack.api.post(
      '/api/v1/laas/rules/create-rule',
      { name: `rule-${randomUUID()}`, coinValue: 5, condition: 'signup', maxNumberOfParticipant: 10 },
      { token: key.body.data.key },
    );
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const tier = await stack.api.post(
      '/api/v1/laas/tiers',
      { name: `gold-${randomUUID()}`, rank: 1 },
      { token: owner.accessToken },
    );
    expect(tier.status, JSON.stringify(tier.body)).toBe(200);
    const revoked = await stack.api.delete(`${TEAM}/api-keys/${key.body.data.id}`, {
      token: owner.accessToken,
    });
    expect(revoked.status).toBe(200);

    await eventuallyPasses(async () => {
      const log = await auditLog(owner.accessToken, { limit: '5' });
      expect(log.data.map((e) => e.action)).toEqual([
        'revokeApiKey',
        'createTier',
        'createRule',
        'setWebhook',
        'createApiKey',
      ]);
      const byKey = log.data.find((e) => e.action === 'createRule');
      expect(byKey.actor).toEqual({ memberId: null, email: null, apiKeyId: key.body.data.id });
      for (const e of log.data.filter((x) => x !== byKey)) expect(e.actor.email).toBe(owner.email);
    });
    const byKeyOnly = await auditLog(owner.accessToken, { actor: key.body.data.id });
    expect(byKeyOnly.data.map((e) => e.action)).toEqual(['createRule']);
  });

  it('keeps an owner: the last owner cannot leave or be demoted, an admin cannot touch an owner', async () => {
    const ownerId = (await stack.api.get(`${TEAM}/members/me`, { token: owner.accessToken })).body.data.id;
    const leave = await stack.api.delete(`${TEAM}/members/${ownerId}`, { token: owner.accessToken });
    expect(leave.status).toBe(422);
    expect(leave.body.data).toMatchObject({ appErrorCode: 'LAST_OWNER' });
    const demote = await stack.api.patch(
      `${TEAM}/members/${ownerId}`,
      { role: 'admin' },
      { token: owner.accessToken },
    );
    expect(demote.status).toBe(422);

    const admin = await join(owner.accessToken, 'admin');
    const byAdmin = await stack.api.patch(
      `${TEAM}/members/${ownerId}`,
      { role: 'viewer' },
      { token: admin.token },
    );
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.data.error).toBe("only an owner can change an owner's role");
    const removeByAdmin = await stack.api.delete(`${TEAM}/members/${ownerId}`, { token: admin.token });
    expect(removeByAdmin.status).toBe(403);
    const promote = await stack.api.patch(
      `${TEAM}/members/${admin.id}`,
      { role: 'owner' },
      { token: admin.token },
    );
    expect(promote.status).toBe(403);

    // An admin manages the others: support becomes a viewer, then is removed and can no longer refresh.
    const toViewer = await stack.api.patch(
      `${TEAM}/members/${support.id}`,
      { role: 'viewer' },
      { token: admin.token },
    );
    expect(toViewer.body.data).toMatchObject({ id: support.id, role: 'viewer' });
    const supportLogin = await stack.api.post(`${TEAM}/login`, { email: support.email, password: PASSWORD });
    const removed = await stack.api.delete(`${TEAM}/members/${support.id}`, { token: admin.token });
    expect(removed.status).toBe(200);
    const refresh = await stack.api.post(`${TEAM}/refresh`, {
      refreshToken: supportLogin.body.data.tokens.refreshToken,
    });
    expect(refresh.status).toBe(401);

    // With a second owner, the first may leave.
    const promoted = await stack.api.patch(
      `${TEAM}/members/${admin.id}`,
      { role: 'owner' },
      { token: owner.accessToken },
    );
    expect(promoted.body.data.role).toBe('owner');
    const left = await stack.api.delete(`${TEAM}/members/${ownerId}`, { token: owner.accessToken });
    expect(left.status).toBe(200);
    // A role change ends the member's access tokens at once; a refresh carries the new role.
    expect((await stack.api.get(`${TEAM}/members/me`, { token: admin.token })).status).toBe(401);
    const refreshed = await stack.api.post(`${TEAM}/refresh`, { refreshToken: admin.refreshToken });
    expect(refreshed.status).toBe(200);
    const log = await auditLog(refreshed.body.data.tokens.accessToken, { action: 'removeMember' });
    expect(log.data.map((e) => e.summary)).toEqual([
      `${owner.email} left the team`,
      `removed ${support.email} (viewer)`,
    ]);
  });

  it('keeps the audit log append-only: the service role cannot UPDATE or DELETE it', async () => {
    const url = stack.env.IDENTITY_DATABASE_URL!;
    const codeOf = (sql: string) =>
      withDatabase(url, (c) => c.query(sql)).then(
        () => 'succeeded',
        (err: { code?: string }) => err.code,
      );
    expect(
      await codeOf(`UPDATE audit_log SET summary = 'forged' WHERE partner_id = '${owner.partnerId}'`),
    ).toBe('42501');
    expect(await codeOf(`DELETE FROM audit_log WHERE partner_id = '${owner.partnerId}'`)).toBe('42501');
    expect(await codeOf('TRUNCATE audit_log')).toBe('42501');
    const count = await withDatabase(url, (c) =>
      c.query('SELECT count(*)::int AS n FROM audit_log WHERE partner_id = $1', [owner.partnerId]),
    );
    expect(count.rows[0].n).toBeGreaterThan(5);
  });
});
