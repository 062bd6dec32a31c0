import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_SCOPES, forbiddenText } from '@coin/contracts';
import type { Stack } from '@coin/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { stackWith } from './support/stack.ts';

let stack: Stack;
let partner: RegisteredPartner;

const KEYS = '/api/v1/ufel/partners/api-keys';
const ME = '/api/v1/ufel/partners/me';

beforeAll(async () => {
  stack = await stackWith(['identity', 'wallet'], { API_KEY_CACHE_MS: '0', AUTH_RATE_LIMIT_MAX: '1000' });
  partner = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await stack?.stop();
});

async function newKey(body: Record<string, unknown>) {
  const res = await stack.api.post(KEYS, body, { token: partner.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; key: string; scopes: string[]; expiresAt: string | null };
}

describe('API key scopes', () => {
  it('refuses a scoped key outside its scopes with 403 naming the scope, and serves it inside them', async () => {
    const readOnly = await newKey({ name: 'reporting', scopes: ['read'] });
    expect(readOnly.scopes).toEqual(['read']);
    const transfer = await stack.api.post(
      '/api/v1/laas/coins/transfer-to-user-wallet',
      { userId: randomUUID(), coins: 1 },
      { token: readOnly.key },
    );
    expect(transfer.status).toBe(403);
    expect(transfer.body).toEqual({
      status: 'failed',
      message: 'forbidden',
      data: { errorType: 'forbidden', appErrorCode: 'FORBIDDEN', error: forbiddenText.missing('coins') },
    });
    expect((await stack.api.get(ME, { token: readOnly.key })).status).toBe(200);

    const coinsOnly = await newKey({ name: 'payouts', scopes: ['coins'] });
    const me = await stack.api.get(ME, { token: coinsOnly.key });
    expect(me.status).toBe(403);
    expect(me.body.data.error).toBe("This credential lacks the 'read' permission");
  });

  it('gives a key created without scopes all six, lists scopes and expiry, and refuses unknown scopes', async () => {
    const all = await newKey({ name: 'everything' });
    expect(all.scopes).toEqual([...API_KEY_SCOPES]);
    expect(all.expiresAt).toBeNull();
    const listed = await stack.api.get(KEYS, { token: partner.accessToken });
    expect(listed.body.data.data.find((k: { id: string }) => k.id === all.id)).toMatchObject({
      scopes: [...API_KEY_SCOPES],
      expiresAt: null,
    });
    for (const [scopes, error] of [
      [['credentials'], 'scopes[0] must be one of'],
      [[], 'scopes must contain at least 1 item'],
      [['read', 'read'], 'scopes must not repeat a scope'],
    ] as const) {
      const res = await stack.api.post(KEYS, { name: 'bad', scopes }, { token: partner.accessToken });
      expect(res.status).toBe(400);
      expect(res.body.data.error).toContain(error);
    }
  });

  it('stops accepting a key once it expires', async () => {
    const expiresAt = new Date(Date.now() + 2000).toISOString();
    const brief = await newKey({ name: 'brief', scopes: ['read'], expiresAt });
    expect(Date.parse(brief.expiresAt!)).toBe(Date.parse(expiresAt));
    expect((await stack.api.get(ME, { token: brief.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 200));
    const late = await stack.api.get(ME, { token: brief.key });
    expect(late.status).toBe(401);
    const past = await stack.api.post(
      KEYS,
      { name: 'past', expiresAt: new Date(Date.now() - 1000).toISOString() },
      { token: partner.accessToken },
    );
    expect(past.status).toBe(400);
    expect(past.body.data.error).toBe('expiresAt must be in the future');
  });
});

describe('the key format', () => {
  it('ends in a checksum: a mistyped or made-up key is refused by the gateway alone', async () => {
    const { key } = await newKey({ name: 'checked', scopes: ['read'] });
    expect(key).toMatch(/^ck_live_[0-9A-Za-z]{43}_[0-9A-Za-z]{6}$/);
    const last = key.at(-1) === 'a' ? 'b' : 'a';
    const mistyped = `${key.slice(0, -1)}${last}`;
    const madeUp = `ck_live_${'x'.repeat(43)}_abcdef`;
    // With identity down, a well-formed key cannot be checked (503), but a malformed one is still
    // refused: the gateway answered without the bus.
    await stack.stopService('identity');
    try {
      for (const bad of [mistyped, madeUp, 'ck_live_short']) {
        const res = await stack.api.get(ME, { token: bad });
        expect(res.status, bad).toBe(401);
        expect(res.body.data.error).toBe('api key is malformed: its checksum does not match');
      }
      expect((await stack.api.get(ME, { token: key })).status).toBe(503);
    } finally {
      await stack.startService('identity');
    }
  });

  it('keeps accepting a key made before the checksum, with all six scopes', async () => {
    const legacy = `ck_live_${randomBytes(32).toString('base64url')}`;
    const client = new pg.Client({ connectionString: stack.env.IDENTITY_DATABASE_URL });
    await client.connect();
    try {
      // As the previous release stored it: no scopes named, so the column's default applies.
      await client.query(
        'INSERT INTO api_keys (id, partner_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4, $5)',
        [
          randomUUID(),
          partner.partnerId,
          'old',
          legacy.slice(0, 14),
          createHash('sha256').update(legacy).digest('hex'),
        ],
      );
    } finally {
      await client.end();
    }
    const me = await stack.api.get(ME, { token: legacy });
    expect(me.status).toBe(200);
    expect(me.body.data.partnerId).toBe(partner.partnerId);
    const listed = await stack.api.get(KEYS, { token: partner.accessToken });
    expect(listed.body.data.data.find((k: { name: string }) => k.name === 'old').scopes).toEqual([
      ...API_KEY_SCOPES,
    ]);
  });
});
