import { randomUUID } from 'node:crypto';
import { boundQuery, boundRow, type Database, type EntityManager, isoTime } from '@coin/db';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { KeyEncryption } from './key-encryption.ts';

/**
 * Identity's EdDSA (Ed25519) signing keys, decided in its database so that every replica signs with
 * the same one: the active key is the newest activated and not retired; a retired key stays in the
 * JWKS until verify_until (the overlap), so tokens it signed keep working. Every change happens
 * under one advisory lock, so replicas starting together on an empty database create one key.
 */
const LOCK = "hashtext('identity.signing_keys')";

export interface ActiveKey {
  kid: string;
  /** The private JWK, AES-256-GCM encrypted (see key-encryption.ts). */
  sealed: string;
}

export interface KeyStatus {
  kid: string;
  state: 'active' | 'published' | 'expired';
  activatedAt: string | null;
  retiredAt: string | null;
  verifyUntil: string | null;
}

async function insertKey(em: EntityManager, kek: KeyEncryption): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const kid = randomUUID();
  const privateJwk = JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' });
  await boundQuery(
    em,
    `INSERT INTO signing_keys (kid, private_key_encrypted, public_jwk, activated_at) VALUES ($1, $2, $3, now())`,
    [
      kid,
      kek.encrypt(privateJwk, kid),
      JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' }),
    ],
  );
  return kid;
}

function underLock<T>(db: Database, fn: (em: EntityManager) => Promise<T>): Promise<T> {
  return db.em.fork().transactional(async (em) => {
    await boundQuery(em, `SELECT pg_advisory_xact_lock(${LOCK})`, []);
    return fn(em);
  });
}

/**
 * Makes the table fit to sign from, at start: private keys written in plain text (release 1.0.0) or
 * under the previous key-encryption key are encrypted under the current one; keys of 1.0.0, which
 * knew no activation, become active (the oldest, the one 1.0.0 signed with) or retired with the
 * overlap; an empty table gets its first key.
 */
export async function prepareSigningKeys(db: Database, kek: KeyEncryption, overlapSeconds: number) {
  return underLock(db, async (em) => {
    const rows = await boundQuery<{ kid: string; plain: JWK | null; sealed: string | null }>(
      em,
      'SELECT kid, private_jwk AS plain, private_key_encrypted AS sealed FROM signing_keys',
      [],
    );
    let reEncrypted = 0;
    for (const { kid, plain, sealed } of rows) {
      if (sealed && !plain && kek.isCurrent(sealed)) continue;
      const privateJwk = plain ? JSON.stringify(plain) : kek.decrypt(sealed!, kid);
      await boundQuery(
        em,
        'UPDATE signing_keys SET private_key_encrypted = $2, private_jwk = NULL WHERE kid = $1',
        [kid, kek.encrypt(privateJwk, kid)],
      );
      reEncrypted++;
    }
    await boundQuery(
      em,
      `WITH first AS (SELECT kid FROM signing_keys ORDER BY created_at, kid LIMIT 1)
       UPDATE signing_keys s SET activated_at = s.created_at,
         retired_at = CASE WHEN s.kid = (SELECT kid FROM first) THEN NULL ELSE now() END,
         verify_until = CASE WHEN s.kid = (SELECT kid FROM first) THEN NULL
                             ELSE now() + make_interval(secs => $1) END
       WHERE NOT EXISTS (SELECT 1 FROM signing_keys WHERE activated_at IS NOT NULL)`,
      [overlapSeconds],
    );
    const created = (await activeKey(em)) ? undefined : await insertKey(em, kek);
    return { reEncrypted, created };
  });
}

/**
 * Retires the active key (published for `overlapSeconds` more) and activates a new one. Replicas
 * sign with the new key from their next token on: each reads the active key per token.
 */
export async function rotateSigningKey(db: Database, kek: KeyEncryption, overlapSeconds: number) {
  return underLock(db, async (em) => {
    const retired = await boundQuery<{ kid: string; verifyUntil: string }>(
      em,
      `UPDATE signing_keys SET retired_at = now(), verify_until = now() + make_interval(secs => $1)
       WHERE retired_at IS NULL AND activated_at IS NOT NULL
       RETURNING kid, verify_until AS "verifyUntil"`,
      [overlapSeconds],
    );
    const kid = await insertKey(em, kek);
    return { kid, retired: retired.map((r) => ({ kid: r.kid, verifyUntil: isoTime(r.verifyUntil) })) };
  });
}

/**
 * For a rollback to release 1.0.0 only, which reads private_jwk in plain text: writes every
 * published key back there (the next start of this release encrypts them again).
 */
export async function decryptForRollback(db: Database, kek: KeyEncryption): Promise<number> {
  return underLock(db, async (em) => {
    const rows = await boundQuery<{ kid: string; sealed: string }>(
      em,
      `SELECT kid, private_key_encrypted AS sealed FROM signing_keys
        WHERE private_key_encrypted IS NOT NULL AND (verify_until IS NULL OR verify_until > now())`,
      [],
    );
    for (const { kid, sealed } of rows)
      await boundQuery(em, 'UPDATE signing_keys SET private_jwk = $2 WHERE kid = $1', [
        kid,
        kek.decrypt(sealed, kid),
      ]);
    return rows.length;
  });
}

export async function activeKey(em: EntityManager): Promise<ActiveKey | undefined> {
  return boundRow<ActiveKey>(
    em,
    `SELECT kid, private_key_encrypted AS sealed FROM signing_keys
      WHERE activated_at IS NOT NULL AND retired_at IS NULL AND private_key_encrypted IS NOT NULL
      ORDER BY activated_at DESC, kid DESC LIMIT 1`,
    [],
  );
}

/** The public keys that verify tokens now: the active key and those still in their overlap. */
export async function publishedKeys(em: EntityManager): Promise<JWK[]> {
  const rows = await boundQuery<{ jwk: JWK }>(
    em,
    `SELECT public_jwk AS jwk FROM signing_keys
      WHERE activated_at IS NOT NULL AND (verify_until IS NULL OR verify_until > now())
      ORDER BY activated_at DESC, kid DESC`,
    [],
  );
  return rows.map((r) => r.jwk);
}

export async function keyStatuses(em: EntityManager): Promise<KeyStatus[]> {
  const rows = await boundQuery<{
    kid: string;
    activatedAt: string | null;
    retiredAt: string | null;
    verifyUntil: string | null;
    expired: boolean;
  }>(
    em,
    `SELECT kid, activated_at AS "activatedAt", retired_at AS "retiredAt", verify_until AS "verifyUntil",
            verify_until IS NOT NULL AND verify_until <= now() AS expired
       FROM signing_keys ORDER BY activated_at DESC NULLS LAST, kid DESC`,
    [],
  );
  const time = (t: string | null) => (t === null ? null : isoTime(t));
  return rows.map((r) => ({
    kid: r.kid,
    state: r.retiredAt === null ? 'active' : r.expired ? 'expired' : 'published',
    activatedAt: time(r.activatedAt),
    retiredAt: time(r.retiredAt),
    verifyUntil: time(r.verifyUntil),
  }));
}
