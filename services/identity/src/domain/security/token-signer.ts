import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN } from '@coin/contracts';
import type { Database, EntityManager } from '@coin/db';
import { importJWK, type JWK, SignJWT } from 'jose';
import type { KeyEncryption } from './key-encryption.ts';
import { activeKey, publishedKeys } from './signing-keys.ts';

export interface TokenSigner {
  /**
   * `em`: the caller's, so a token issued inside a transaction needs no second pooled connection.
   * `claims`: the member, e-mail and role, and `auth_time` (when the session's password was entered,
   * epoch seconds) for step-up operations.
   */
  sign(em: EntityManager, partnerId: string, ttlSeconds: number, claims?: SessionClaims): Promise<string>;
  jwks(): Promise<{ keys: JWK[] }>;
}

/** Who the session is: the member (`mid`), their e-mail and role, read by the gateway. */
export interface SessionClaims {
  mid: string;
  email: string;
  role: string;
  auth_time?: number;
}

type PrivateKey = Awaited<ReturnType<typeof importJWK>>;

/**
 * Access tokens are EdDSA (Ed25519) JWTs whose header names the key (`kid`). The active key is
 * read from the database for every token (an indexed row, beside the refresh token's insert), so
 * all replicas switch at once when an operator rotates; decrypted keys are kept by key id.
 */
export function createTokenSigner(db: Database, kek: KeyEncryption): TokenSigner {
  const decrypted = new Map<string, Promise<PrivateKey>>();
  function privateKeyOf(kid: string, sealed: string): Promise<PrivateKey> {
    let key = decrypted.get(kid);
    if (!key) {
      key = importJWK(JSON.parse(kek.decrypt(sealed, kid)) as JWK, 'EdDSA');
      decrypted.set(kid, key);
    }
    return key;
  }
  return {
    async sign(em, partnerId, ttlSeconds, claims) {
      const active = await activeKey(em);
      if (!active) throw new Error('no active signing key (run identity once to create one)');
      return (
        new SignJWT({ typ: 'access', ...claims })
          .setProtectedHeader({ alg: ACCESS_TOKEN.algorithm, kid: active.kid, typ: 'JWT' })
          .setSubject(partnerId)
          .setIssuer(ACCESS_TOKEN.issuer)
          .setAudience(ACCESS_TOKEN.audience)
          // In milliseconds: a cutoff written a moment after a new login must not refuse it.
          .setIssuedAt(Date.now() / 1000)
          .setJti(randomUUID())
          .setExpirationTime(`${ttlSeconds}s`)
          .sign(await privateKeyOf(active.kid, active.sealed))
      );
    },
    jwks: async () => ({ keys: await publishedKeys(db.em.fork()) }),
  };
}
