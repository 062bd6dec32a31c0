import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN } from '@coin/contracts';
import type { Database } from '@coin/db';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { SigningKey } from '../entities.ts';

export interface TokenSigner {
  kid: string;
  sign(partnerId: string, ttlSeconds: number): Promise<string>;
  jwks(): { keys: JWK[] };
}

/**
 * Access tokens are EdDSA (Ed25519) JWTs. The key pair lives in identity's database; the oldest key
 * signs, so replicas that start together and each insert a key still agree on one.
 */
export async function loadTokenSigner(orm: Database): Promise<TokenSigner> {
  const em = orm.em.fork();
  let keys = await em.find(SigningKey, {}, { orderBy: { createdAt: 'asc', kid: 'asc' } });
  if (keys.length === 0) {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    await em.insert(SigningKey, {
      kid,
      privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' },
      publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' },
      createdAt: new Date(),
    });
    keys = await em.find(SigningKey, {}, { orderBy: { createdAt: 'asc', kid: 'asc' } });
  }
  const active = keys[0];
  const privateKey = await importJWK(active.privateJwk as JWK, 'EdDSA');
  const publicKeys = keys.map((k) => k.publicJwk as JWK);
  return {
    kid: active.kid,
    async sign(partnerId, ttlSeconds) {
      return new SignJWT({ typ: 'access' })
        .setProtectedHeader({ alg: ACCESS_TOKEN.algorithm, kid: active.kid, typ: 'JWT' })
        .setSubject(partnerId)
        .setIssuer(ACCESS_TOKEN.issuer)
        .setAudience(ACCESS_TOKEN.audience)
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(privateKey);
    },
    jwks: () => ({ keys: publicKeys }),
  };
}
