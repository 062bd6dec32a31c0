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

async function register(): Promise<string> {
  const email = `p-${randomUUID()}@example.com`;
  await svc.call(identity.registerPartner, {
    body: {
      applicationName: 'Hash test',
      redirectUrl: 'https://partner.example/r',
      webRedirectUrl: 'https://partner.example/w',
      mobileRedirectUrl: 'partner://cb',
      email,
      partnerName: 'Hash Test Ltd',
      password,
      confirmPassword: password,
      userDetailsUrl: 'https://partner.example/users',
    },
  });
  return email;
}

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
    expect(await storedHash(await register())).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$[\w-]+\$[\w-]+$/);
  });

  it('still logs in a partner whose password was hashed with the earlier 19 MiB and 2 passes', async () => {
    const email = await register();
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
    await expect(
      svc.call(identity.login, { body: { email, password: 'wrong horse battery staple' } }),
    ).rejects.toMatchObject({
      status: 401,
    });
  });
});
