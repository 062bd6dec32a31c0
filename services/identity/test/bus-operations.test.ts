import { argon2, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { identity } from '@coin/contracts';
import { queryDatabase, type ServiceAlone, startServiceAlone } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentity } from '../src/service.ts';

let svc: ServiceAlone;

beforeAll(async () => {
  svc = await startServiceAlone('identity', startIdentity);
});

afterAll(async () => {
  await svc?.stop();
});

const password = 'correct horse battery staple';

async function registered() {
  const email = `p-${randomUUID()}@example.com`;
  const partner = await svc.call(identity.registerPartner, {
    body: {
      applicationName: 'Identity test',
      redirectUrl: 'https://partner.example/r',
      webRedirectUrl: 'https://partner.example/w',
      mobileRedirectUrl: 'partner://cb',
      email,
      partnerName: 'Identity Test Ltd',
      password,
      confirmPassword: password,
      userDetailsUrl: 'https://partner.example/users',
    },
  });
  return { email, partnerId: partner.partnerId };
}

describe('identity over the bus', () => {
  it('registers a partner once per e-mail and logs it in with its password only', async () => {
    const { email, partnerId } = await registered();
    const again = await svc.refusal(identity.registerPartner, {
      body: {
        applicationName: 'Again',
        redirectUrl: 'https://partner.example/r',
        webRedirectUrl: 'https://partner.example/w',
        mobileRedirectUrl: 'partner://cb',
        email,
        partnerName: 'Again',
        password,
        confirmPassword: password,
        userDetailsUrl: 'https://partner.example/users',
      },
    });
    expect(again.status).toBe(409);
    const wrong = await svc.refusal(identity.login, { body: { email, password: `${password}!` } });
    expect(wrong.status).toBe(401);
    const login = await svc.call(identity.login, { body: { email, password } });
    expect(login.user.id).toBe(partnerId);
    expect(login.tokens.accessToken.split('.')).toHaveLength(3);
  });

  it('rotates refresh tokens, and a spent one revokes its whole family', async () => {
    const { email } = await registered();
    const { tokens } = await svc.call(identity.login, { body: { email, password } });
    const next = await svc.call(identity.refreshTokens, { body: { refreshToken: tokens.refreshToken } });
    expect(next.tokens.refreshToken).not.toBe(tokens.refreshToken);
    const reuse = await svc.refusal(identity.refreshTokens, { body: { refreshToken: tokens.refreshToken } });
    expect(reuse.status).toBe(401);
    const descendant = await svc.refusal(identity.refreshTokens, {
      body: { refreshToken: next.tokens.refreshToken },
    });
    expect(descendant.status).toBe(401);
  });

  it('resolves a secret API key to its partner until it is revoked, and never lists the secret', async () => {
    const { partnerId } = await registered();
    const created = await svc.call(identity.createApiKey, {
      partnerId,
      body: { name: 'ci', scopes: ['read', 'coins'] },
    });
    expect(created.key.startsWith('ck_live_')).toBe(true);
    expect(await svc.call(identity.verifyApiKey, { body: { key: created.key } })).toEqual({
      partnerId,
      keyId: created.id,
      scopes: ['read', 'coins'],
      expiresAt: null,
    });
    const listed = await svc.call(identity.listApiKeys, { partnerId });
    expect(listed.data.map((k) => k.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    const foreign = await svc.refusal(identity.revokeApiKey, {
      partnerId: randomUUID(),
      params: { id: created.id },
    });
    expect(foreign.status).toBe(404);
    await svc.call(identity.revokeApiKey, { partnerId, params: { id: created.id } });
    const revoked = await svc.refusal(identity.verifyApiKey, { body: { key: created.key } });
    expect(revoked.status).toBe(401);
  });

  it('gives other services the webhook URL and signing secret it set, rotated on request', async () => {
    const { partnerId } = await registered();
    expect(await svc.call(identity.getPartner, { partnerId, body: {} })).toMatchObject({
      webhookUrl: null,
      webhookSecret: null,
    });
    const set = await svc.call(identity.setWebhook, {
      partnerId,
      body: { url: 'https://partner.example/hooks', rotateSecret: false },
    });
    expect(set.secret).toMatch(/^whsec_/);
    expect(await svc.call(identity.getPartner, { partnerId, body: {} })).toMatchObject({
      webhookUrl: 'https://partner.example/hooks',
      webhookSecret: set.secret,
    });
    // A URL change keeps the secret and does not show it again; a rotation shows the new one once.
    const kept = await svc.call(identity.setWebhook, {
      partnerId,
      body: { url: 'https://partner.example/h2', rotateSecret: false },
    });
    expect(kept.secret).toBeUndefined();
    expect((await svc.call(identity.getPartner, { partnerId, body: {} })).webhookSecret).toBe(set.secret);
    const rotated = await svc.call(identity.rotateWebhookSecret, { partnerId });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(set.secret);
  });

  it('refuses a partner operation without a partner', async () => {
    const missing = await svc.refusal(identity.listApiKeys, {} as never);
    expect(missing.status).toBe(401);
  });
});

const storedHash = async (email: string) =>
  (
    await queryDatabase<{ hash: string }>(
      svc.env.IDENTITY_DATABASE_URL!,
      'SELECT password_hash AS hash FROM partners WHERE email = $1',
      [email],
    )
  )[0].hash;

describe('password hashes', () => {
  it('hashes a new password with argon2id at 7 MiB and 5 passes', async () => {
    const { email } = await registered();
    expect(await storedHash(email)).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$[\w-]+\$[\w-]+$/);
  });

  it('still logs in a partner whose password was hashed with the earlier 19 MiB and 2 passes', async () => {
    const { email } = await registered();
    const salt = randomBytes(16);
    const hash = await promisify(argon2)('argon2id', {
      message: password,
      nonce: salt,
      memory: 19_456,
      passes: 2,
      parallelism: 1,
      tagLength: 32,
    });
    const earlier = `$argon2id$v=19$m=19456,t=2,p=1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
    await queryDatabase(
      svc.env.IDENTITY_DATABASE_URL!,
      'UPDATE partners SET password_hash = $1 WHERE email = $2',
      [earlier, email],
    );
    const { tokens } = await svc.call(identity.login, { body: { email, password } });
    expect(tokens.accessToken).toBeTruthy();
    expect(
      (await svc.refusal(identity.login, { body: { email, password: 'wrong horse battery staple' } })).status,
    ).toBe(401);
  });
});
