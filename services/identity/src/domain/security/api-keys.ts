import { randomUUID } from 'node:crypto';
import { API_KEY_PREFIX } from '@coin/contracts';
import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { sha256 } from './secrets.ts';

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  /** Timestamps: Postgres text. */
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const COLUMNS = `id, name, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

/** Only the key's SHA-256 is stored (it has 256 bits of entropy, so no KDF). */
export async function storeApiKey(
  em: EntityManager,
  partnerId: string,
  name: string,
  key: string,
): Promise<ApiKeyRecord> {
  const [row] = await boundQuery<ApiKeyRecord>(
    em,
    `INSERT INTO api_keys (id, partner_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${COLUMNS}`,
    [randomUUID(), partnerId, name, key.slice(0, API_KEY_PREFIX.length + 6), sha256(key)],
  );
  return row;
}

export async function listApiKeys(em: EntityManager, partnerId: string): Promise<ApiKeyRecord[]> {
  return boundQuery<ApiKeyRecord>(
    em,
    `SELECT ${COLUMNS} FROM api_keys WHERE partner_id = $1 ORDER BY created_at DESC`,
    [partnerId],
  );
}

/** Revokes the partner's key; false when the partner has no key with this id. Revoking twice is fine. */
export async function revokeApiKey(em: EntityManager, partnerId: string, id: string): Promise<boolean> {
  const row = await boundRow<{ id: string }>(
    em,
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
      WHERE id = $1 AND partner_id = $2 RETURNING id`,
    [id, partnerId],
  );
  return row !== undefined;
}

/**
 * The live key's owner, recording its use at most once a minute: a key calling many times a second
 * would otherwise write its row on every call. Undefined for an unknown or revoked key.
 */
export async function useApiKey(
  em: EntityManager,
  key: string,
): Promise<{ partnerId: string; keyId: string } | undefined> {
  return boundRow<{ partnerId: string; keyId: string }>(
    em,
    `WITH k AS (SELECT id, partner_id, last_used_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL),
     touched AS (UPDATE api_keys a SET last_used_at = now() FROM k
                  WHERE a.id = k.id AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute'))
     SELECT partner_id AS "partnerId", id AS "keyId" FROM k`,
    [sha256(key)],
  );
}
