import { randomBytes, randomUUID } from 'node:crypto';
import { identity } from '@coin/contracts';
import { type Database, openDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { dropStream, isolatedDatabases, setUpTestBus, startServiceAlone } from '@coin/testing';
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { identityConfig } from '../src/config.ts';
import { keyEncryption } from '../src/domain/security/key-encryption.ts';
import { prepareSigningKeys } from '../src/domain/security/signing-keys.ts';
import { identityMigrations } from '../src/migrations/index.ts';
import { startIdentity } from '../src/service.ts';

const log = createLogger('signing-keys-test', 'silent');
const dbs: { drop(): Promise<void> }[] = [];
const newKek = () => randomBytes(32).toString('base64');

afterAll(async () => {
  for (const d of dbs) await d.drop();
});

function freshDatabase(): string {
  const d = isolatedDatabases(['identity']);
  dbs.push(d);
  return d.env.IDENTITY_DATABASE_URL;
}

async function rows(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      await client.query(
        'SELECT kid, private_jwk, private_key_encrypted, activated_at, retired_at FROM signing_keys',
      )
    ).rows;
  } finally {
    await client.end();
  }
}

const password = 'correct horse battery staple';

type Call = Awaited<ReturnType<typeof startServiceAlone>>['call'];

/** Registers a partner and logs it in over identity's bus subjects; returns its tokens. */
async function registerAndLogIn(call: Call) {
  const email = `p-${randomUUID()}@example.com`;
  await call(identity.registerPartner, {
    body: {
      applicationName: 'Keys test',
      redirectUrl: 'https://partner.example/r',
      webRedirectUrl: 'https://partner.example/w',
      mobileRedirectUrl: 'partner://cb',
      email,
      partnerName: 'Keys Test Ltd',
      password,
      confirmPassword: password,
      userDetailsUrl: 'https://partner.example/users',
    },
  });
  return (await call(identity.login, { body: { email, password } })).tokens;
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid as string;

/** The kid of a fresh partner's access token. */
async function kidOfLogin(call: Call): Promise<string> {
  return kidOf((await registerAndLogIn(call)).accessToken);
}

describe('signing keys in the database', () => {
  it('eight replicas preparing their keys at once on an empty database create one between them', async () => {
    const url = freshDatabase();
    const dbs: Database[] = [];
    for (let i = 0; i < 8; i++)
      dbs.push(await openDatabase({ url, migrationUrl: url, migrations: identityMigrations, log }));
    try {
      const kek = keyEncryption(Buffer.from(newKek(), 'base64'));
      const results = await Promise.all(dbs.map((db) => prepareSigningKeys(db, kek, 3600)));
      expect(results.filter((r) => r.created !== undefined)).toHaveLength(1);
      expect(await rows(url)).toHaveLength(1);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });

  it('encrypts a key release 1.0.0 stored in plain text, and keeps signing with it', async () => {
    const url = freshDatabase();
    const db = await openDatabase({ url, migrationUrl: url, migrations: identityMigrations, log });
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // What 1.0.0 wrote: the private JWK as it is, no activation.
    await client.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
      kid,
      privateJwk,
      { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' },
    ]);
    await client.end();
    await db.close();

    const svc = await startServiceAlone('identity', startIdentity, {
      IDENTITY_DATABASE_URL: url,
      KEY_ENCRYPTION_KEY: newKek(),
    });
    try {
      const [row] = await rows(url);
      expect(row.private_jwk).toBeNull();
      expect(row.private_key_encrypted).toMatch(/^v1\./);
      expect(row.private_key_encrypted).not.toContain(privateJwk.d);
      expect(row.activated_at).not.toBeNull();
      expect(await kidOfLogin(svc.call)).toBe(kid);
      expect((await svc.call(identity.getJwks, { body: {} })).keys.map((k) => k.kid)).toEqual([kid]);
    } finally {
      await svc.stop();
    }
  });

  it('re-encrypts under a new KEY_ENCRYPTION_KEY given the previous one, and cannot start with neither', async () => {
    const url = freshDatabase();
    const [oldKek, newOne] = [newKek(), newKek()];
    const first = await startServiceAlone('identity', startIdentity, {
      IDENTITY_DATABASE_URL: url,
      KEY_ENCRYPTION_KEY: oldKek,
    });
    const kid = await kidOfLogin(first.call);
    const before = (await rows(url))[0].private_key_encrypted;
    await first.stop();

    const refused = {
      ...process.env,
      LOG_LEVEL: 'silent',
      NATS_NAMESPACE: `t${randomBytes(5).toString('hex')}`,
      IDENTITY_DATABASE_URL: url,
      KEY_ENCRYPTION_KEY: newOne,
    };
    // The operator's set-up first, as in a deployment: a service only binds to the streams.
    await setUpTestBus(refused);
    await expect(startIdentity(refused)).rejects.toThrow(
      /neither KEY_ENCRYPTION_KEY nor KEY_ENCRYPTION_KEY_PREVIOUS/,
    );
    await dropStream(refused);

    const rotated = await startServiceAlone('identity', startIdentity, {
      IDENTITY_DATABASE_URL: url,
      KEY_ENCRYPTION_KEY: newOne,
      KEY_ENCRYPTION_KEY_PREVIOUS: oldKek,
    });
    try {
      expect((await rows(url))[0].private_key_encrypted).not.toBe(before);
      expect(await kidOfLogin(rotated.call)).toBe(kid);
    } finally {
      await rotated.stop();
    }
    const after = await startServiceAlone('identity', startIdentity, {
      IDENTITY_DATABASE_URL: url,
      KEY_ENCRYPTION_KEY: newOne,
    });
    try {
      expect(await kidOfLogin(after.call)).toBe(kid);
    } finally {
      await after.stop();
    }
  });

  it('signs a refreshed token on the connection of the refresh transaction: a pool of one suffices', async () => {
    const svc = await startServiceAlone('identity', startIdentity, {
      DB_POOL_MAX: '1',
      DB_ACQUIRE_TIMEOUT_MS: '1000',
    });
    try {
      const tokens = await registerAndLogIn(svc.call);
      const refreshed = await svc.call(identity.refreshTokens, {
        body: { refreshToken: tokens.refreshToken },
      });
      expect(kidOf(refreshed.tokens.accessToken)).toBe(kidOf(tokens.accessToken));
    } finally {
      await svc.stop();
    }
  });

  it('refuses production mode without KEY_ENCRYPTION_KEY, and a key that is not 32 bytes of base64', () => {
    const production = { APP_MODE: 'production', SMTP_URL: 'smtps://u:p@smtp.example.com:465' };
    expect(() => identityConfig(production)).toThrow(/KEY_ENCRYPTION_KEY: is required in production mode/);
    expect(() => identityConfig({ ...production, KEY_ENCRYPTION_KEY: 'c2hvcnQ=' })).toThrow(
      /KEY_ENCRYPTION_KEY: must be 32 bytes in base64/,
    );
    expect(identityConfig({ ...production, KEY_ENCRYPTION_KEY: newKek() }).KEY_ENCRYPTION_KEY).toHaveLength(
      32,
    );
  });
});
