import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN } from '@coin/contracts';
import { boundQuery, type Database, type EntityManager } from '@coin/db';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';

export interface TokenSigner {
  kid: string;
  sign(partnerId: string, ttlSeconds: number): Promise<string>;
  jwks(): { keys: JWK[] };
}

/**
 * Access tokens are EdDSA (Ed25519) JWTs. The key pair lives in identity's database; the oldest key
 * signs, so replicas that start together and each insert a key still agree on one.
 */
interface SigningKeyRow {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

function signingKeys(em: EntityManager): Promise<SigningKeyRow[]> {
  return boundQuery<SigningKeyRow>(
    em,
    'SELECT kid, private_jwk AS "privateJwk", public_jwk AS "publicJwk" FROM signing_keys ORDER BY created_at, kid',
    [],
  );
}

export async function loadTokenSigner(orm: Database): Promise<TokenSigner> {
  const em = orm.em.fork();
  let keys = await signingKeys(em);
  if (keys.length === 0) {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const kid = randomUUID();
    await boundQuery(em, 'INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
      kid,
      JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' }),
      JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' }),
    ]);
    keys = await signingKeys(em);
  }
  const active = keys[0];
  const privateKey = await importJWK(active.privateJwk, 'EdDSA');
  const publicKeys = keys.map((k) => k.publicJwk);
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
