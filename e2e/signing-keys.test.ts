import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { awaitReplicas, connectBus } from '@coin/bus';
import { startGateway } from '@coin/gateway';
import {
  apiClient,
  isolatedDatabases,
  type ServiceProcess,
  type Stack,
  spawnService,
  startStack,
} from '@coin/testing';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin } from './support/partners.ts';
import { runCommand } from './support/restore.ts';
import { activeSigningKey, decryptedSigningKeys, signingKeyRows } from './support/signing-keys.ts';
import { stackWith } from './support/stack.ts';

// A key of this run (not the development key): what production does with KEY_ENCRYPTION_KEY.
const KEY_ENCRYPTION_KEY = randomBytes(32).toString('base64');
const env = { KEY_ENCRYPTION_KEY, AUTH_RATE_LIMIT_MAX: '1000', API_KEY_CACHE_MS: '0' };

const kidOf = (token: string) => decodeProtectedHeader(token).kid as string;

async function rotate(stackEnv: NodeJS.ProcessEnv, overlapSeconds: number): Promise<string> {
  const { code, output } = await runCommand(
    'services/identity/src/tools/keys.ts',
    ['rotate', '--overlap-seconds', String(overlapSeconds)],
    stackEnv,
  );
  expect(code, output).toBe(0);
  return /active signing key: (\S+)/.exec(output)![1];
}

function expectUnauthorized(res: { status: number; body: any }, error: string) {
  expect(res.status).toBe(401);
  expect(res.body.status).toBe('failed');
  expect(res.body.data.appErrorCode).toBe('UNAUTHORIZED');
  expect(res.body.data.error).toBe(error);
}

describe('signing-key rotation through the gateway', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await stackWith(['identity'], env);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const me = (token: string, api = stack.api) => api.get('/api/v1/ufel/partners/me', { token });

  it('keeps tokens of the previous key working during the overlap, signs new ones with the new kid, refuses unknown kids', async () => {
    const before = await registerAndLogin(stack.api);
    const first = kidOf(before.accessToken);
    const jwks = await stack.api.get('/api/v1/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toEqual([first]);
    expect(jwks.body.keys[0]).not.toHaveProperty('d');

    // The gateway holds the key set it fetched above: the new kid is unknown to it until it refreshes.
    const second = await rotate(stack.env, 600);
    expect(second).not.toBe(first);
    const after = await registerAndLogin(stack.api);
    expect(kidOf(after.accessToken)).toBe(second);
    expect((await me(after.accessToken)).status).toBe(200);
    expect((await me(before.accessToken)).status).toBe(200);
    const published = await stack.api.get('/api/v1/.well-known/jwks.json');
    expect(published.body.keys.map((k: { kid: string }) => k.kid).sort()).toEqual([first, second].sort());

    // A key rotated out with no overlap (as after a leak) verifies nothing: a gateway that starts
    // now fetches the published keys, and the older key is still in its overlap.
    const third = await rotate(stack.env, 0);
    const fresh = await startGateway({ ...stack.env, PORT: '0', READY_SERVICES: 'identity' });
    try {
      const freshMe = (token: string) => me(token, apiClient(fresh.url));
      expect((await freshMe(before.accessToken)).status).toBe(200);
      expectUnauthorized(await freshMe(after.accessToken), 'access token is signed with an unknown key');
      const latest = await registerAndLogin(stack.api);
      expect(kidOf(latest.accessToken)).toBe(third);
      expect((await freshMe(latest.accessToken)).status).toBe(200);
      console.log(
        `rotation: kid ${first} → ${second} (overlap 600 s) → ${third} (overlap 0); the token of ${first} still works, the one of ${second} is refused by a gateway that fetched the keys afterwards`,
      );
    } finally {
      await fresh.stop();
    }
  });

  it('refuses a token whose kid identity never published, and one that names no kid', async () => {
    const p = await registerAndLogin(stack.api);
    const { privateKey } = generateKeyPairSync('ed25519');
    const claims = () =>
      new SignJWT({ typ: 'access' })
        .setSubject(p.partnerId)
        .setIssuer('coin-rewards/identity')
        .setAudience('coin-rewards/api')
        .setIssuedAt()
        .setExpirationTime('5m');
    const unknown = await claims().setProtectedHeader({ alg: 'EdDSA', kid: randomUUID() }).sign(privateKey);
    expectUnauthorized(await me(unknown), 'access token is signed with an unknown key');

    const real = await activeSigningKey(stack.env);
    const noKid = await claims().setProtectedHeader({ alg: 'EdDSA' }).sign(real.privateKey);
    expectUnauthorized(await me(noKid), 'access token names no key (kid)');
    // The same claims with the real key and its kid pass: the refusals are about the key id.
    const valid = await claims().setProtectedHeader({ alg: 'EdDSA', kid: real.kid }).sign(real.privateKey);
    expect((await me(valid)).status).toBe(200);
  });

  it('fetches the keys at most about once a second however many unknown kids arrive', async () => {
    const jwksFetches = async () => {
      const text = (await stack.api.get('/metrics')).text;
      return [
        ...text.matchAll(/^coin_bus_request_duration_seconds_count\{[^}]*operation="getJwks"[^}]*\} (\d+)/gm),
      ]
        .map((m) => Number(m[1]))
        .reduce((a, b) => a + b, 0);
    };
    const p = await registerAndLogin(stack.api);
    const { privateKey } = generateKeyPairSync('ed25519');
    const forged = () =>
      new SignJWT({ typ: 'access' })
        .setSubject(p.partnerId)
        .setIssuer('coin-rewards/identity')
        .setAudience('coin-rewards/api')
        .setExpirationTime('5m')
        .setProtectedHeader({ alg: 'EdDSA', kid: randomUUID() })
        .sign(privateKey);
    const before = await jwksFetches();
    const started = Date.now();
    const answers = [];
    for (let round = 0; round < 5; round++)
      answers.push(...(await Promise.all(Array.from({ length: 20 }, async () => me(await forged())))));
    const seconds = (Date.now() - started) / 1000;
    const fetches = (await jwksFetches()) - before;
    console.log(
      `${answers.length} tokens with unknown kids in ${seconds.toFixed(1)} s: ${fetches} JWKS fetches`,
    );
    expect(answers.every((a) => a.status === 401)).toBe(true);
    expect(fetches).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });

  it('keeps no private key in plain text in the database', async () => {
    const keys = await decryptedSigningKeys(stack.env);
    expect(keys.length).toBeGreaterThan(0);
    const stored = JSON.stringify(await signingKeyRows(stack.env.IDENTITY_DATABASE_URL!));
    for (const key of keys) {
      expect(key.private_jwk).toBeNull();
      expect(key.private_key_encrypted).toMatch(/^v1\./);
      expect(stored).not.toContain(key.jwk.d);
    }
  });
});

describe('two identity replicas started at once on an empty database', () => {
  let stack: Stack;
  const dbs = isolatedDatabases(['identity']);
  const replicas: ServiceProcess[] = [];

  beforeAll(async () => {
    stack = await startStack({
      services: {},
      gateway: startGateway,
      env: { ...env, ...dbs.env, LOG_LEVEL: 'warn' },
    });
  });

  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await stack?.stop();
    await dbs.drop();
  });

  it('create one key between them and sign with it', async () => {
    const childEnv = { ...stack.env, ...dbs.env };
    replicas.push(
      ...(await Promise.all([spawnService('identity', childEnv), spawnService('identity', childEnv)])),
    );
    const nc = await connectBus(stack.env.NATS_URL!, 'keys-test', stack.env.NATS_NAMESPACE!);
    try {
      if (!(await awaitReplicas(nc, 'identity', { replicas: 2, timeoutMs: 20_000, intervalMs: 300 }))) {
        throw new Error('the two identity replicas do not both answer PING');
      }
    } finally {
      await nc.close();
    }

    const rows = await signingKeyRows(dbs.env.IDENTITY_DATABASE_URL);
    expect(rows).toHaveLength(1);
    // Logins are spread over both replicas (one queue group): one replica misses all 12 with odds 2^-11.
    const kids = new Set<string>();
    for (let i = 0; i < 12; i++) kids.add(kidOf((await registerAndLogin(stack.api)).accessToken));
    console.log(
      `two identity replicas started at once on an empty database: ${rows.length} key row, 12 logins signed with ${kids.size} kid`,
    );
    expect([...kids]).toEqual([rows[0].kid]);
  });
});
