import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { identity } from '@coin/contracts';
import { queryDatabase, type ServiceAlone, startServiceAlone } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentity } from '../src/service.ts';

/**
 * Webhook signing secrets rest encrypted under the key-encryption key, bound to their partner; those
 * the previous release stored in plain text are encrypted when identity starts, and a rotation of the
 * key-encryption key re-encrypts them; partners and the webhooks service see the same secret throughout.
 */
const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const fingerprint = (key: string) =>
  createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 16);

let svc: ServiceAlone;

beforeAll(async () => {
  svc = await startServiceAlone('identity', startIdentity, { KEY_ENCRYPTION_KEY: keyA });
});

afterAll(async () => {
  await svc?.stop();
});

const password = 'correct horse battery staple';

async function partnerWithWebhook(): Promise<{ partnerId: string; secret: string }> {
  const partner = await svc.call(identity.registerPartner, {
    body: {
      applicationName: 'Secrets test',
      redirectUrl: 'https://partner.example/r',
      webRedirectUrl: 'https://partner.example/w',
      mobileRedirectUrl: 'partner://cb',
      email: `s-${randomUUID()}@example.com`,
      partnerName: 'Secrets Ltd',
      password,
      confirmPassword: password,
      userDetailsUrl: 'https://partner.example/users',
    },
  });
  const set = await svc.call(identity.setWebhook, {
    partnerId: partner.partnerId,
    body: { url: 'https://partner.example/hooks', rotateSecret: false },
  });
  return { partnerId: partner.partnerId, secret: set.secret! };
}

const stored = async (partnerId: string) =>
  (
    await queryDatabase<{ plain: string | null; sealed: string | null }>(
      svc.env.IDENTITY_DATABASE_URL!,
      'SELECT webhook_secret AS plain, webhook_secret_encrypted AS sealed FROM partners WHERE partner_id = $1',
      [partnerId],
    )
  )[0];

const secretOf = async (partnerId: string) =>
  (await svc.call(identity.getPartner, { partnerId, body: {} })).webhookSecret;

/** Another replica of identity started on the same database: its start-time pass runs. */
async function startReplica(env: Record<string, string>): Promise<void> {
  const replica = await startIdentity({ ...svc.env, ...env });
  await replica.stop();
}

describe('webhook signing secrets at rest', () => {
  it('stores a new secret encrypted under the current key, never in plain text', async () => {
    const { partnerId, secret } = await partnerWithWebhook();
    expect(secret).toMatch(/^whsec_/);
    const row = await stored(partnerId);
    expect(row.plain).toBeNull();
    expect(row.sealed?.startsWith(`v1.${fingerprint(keyA)}.`)).toBe(true);
    expect(row.sealed).not.toContain(secret.slice('whsec_'.length, 20));
    expect(await secretOf(partnerId)).toBe(secret);
    const rotated = await svc.call(identity.rotateWebhookSecret, { partnerId });
    expect(rotated.secret).not.toBe(secret);
    expect((await stored(partnerId)).plain).toBeNull();
    expect(await secretOf(partnerId)).toBe(rotated.secret);
  });

  it("does not open one partner's ciphertext as another's", async () => {
    const first = await partnerWithWebhook();
    const second = await partnerWithWebhook();
    await queryDatabase(
      svc.env.IDENTITY_DATABASE_URL!,
      'UPDATE partners SET webhook_secret_encrypted = $2 WHERE partner_id = $1',
      [second.partnerId, (await stored(first.partnerId)).sealed],
    );
    const refusal = await svc.refusal(identity.getPartner, { partnerId: second.partnerId, body: {} });
    expect(refusal.status).toBe(500);
  });

  it('encrypts at start the secrets the previous release stored in plain text, and re-encrypts under a new key', async () => {
    const upgraded = await partnerWithWebhook();
    const legacy = `whsec_${randomBytes(32).toString('base64')}`;
    // What the previous release wrote, and what a replica of it still writes during a rolling update.
    await queryDatabase(
      svc.env.IDENTITY_DATABASE_URL!,
      'UPDATE partners SET webhook_secret = $2, webhook_secret_encrypted = NULL WHERE partner_id = $1',
      [upgraded.partnerId, legacy],
    );
    expect(await secretOf(upgraded.partnerId)).toBe(legacy);

    await startReplica({ KEY_ENCRYPTION_KEY: keyA });
    const encrypted = await stored(upgraded.partnerId);
    expect(encrypted.plain).toBeNull();
    expect(encrypted.sealed?.startsWith(`v1.${fingerprint(keyA)}.`)).toBe(true);
    expect(await secretOf(upgraded.partnerId)).toBe(legacy);
    // Idempotent: a second start writes nothing.
    await startReplica({ KEY_ENCRYPTION_KEY: keyA });
    expect((await stored(upgraded.partnerId)).sealed).toBe(encrypted.sealed);

    await startReplica({ KEY_ENCRYPTION_KEY: keyB, KEY_ENCRYPTION_KEY_PREVIOUS: keyA });
    const rotated = await stored(upgraded.partnerId);
    expect(rotated.plain).toBeNull();
    expect(rotated.sealed?.startsWith(`v1.${fingerprint(keyB)}.`)).toBe(true);
    const reader = await startServiceAlone('identity', startIdentity, {
      KEY_ENCRYPTION_KEY: keyB,
      IDENTITY_DATABASE_URL: svc.env.IDENTITY_DATABASE_URL!,
      IDENTITY_MIGRATION_DATABASE_URL: svc.env.IDENTITY_MIGRATION_DATABASE_URL!,
    });
    try {
      const partner = await reader.call(identity.getPartner, { partnerId: upgraded.partnerId, body: {} });
      expect(partner.webhookSecret).toBe(legacy);
    } finally {
      await reader.stop();
    }
  });
});
