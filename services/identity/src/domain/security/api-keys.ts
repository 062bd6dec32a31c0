import { randomUUID } from 'node:crypto';
import { API_KEY_PREFIX, type ApiKeyScope } from '@coin/contracts';
import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { sha256 } from './secrets.ts';

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  /** Timestamps: Postgres text. */
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const COLUMNS = `id, name, prefix, scopes, created_at AS "createdAt", expires_at AS "expiresAt",
  last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`;

export interface NewApiKey {
  name: string;
  scopes: readonly ApiKeyScope[];
  /** ISO 8601; undefined: until revoked. */
  expiresAt?: string;
}

/** Only the key's SHA-256 is stored (it has 256 bits of entropy, so no KDF). */
export async function storeApiKey(
  em: EntityManager,
  partnerId: string,
  spec: NewApiKey,
  key: string,
): Promise<ApiKeyRecord> {
  const [row] = await boundQuery<ApiKeyRecord>(
    em,
    `INSERT INTO api_keys (id, partner_id, name, prefix, key_hash, scopes, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      partnerId,
      spec.name,
      key.slice(0, API_KEY_PREFIX.length + 6),
      sha256(key),
      spec.scopes,
      spec.expiresAt ?? null,
    ],
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

export interface LiveApiKey {
  partnerId: string;
  keyId: string;
  scopes: ApiKeyScope[];
  expiresAt: string | null;
}

/**
 * The live key's owner and scopes, recording its use at most once a minute: a key calling many times a second
 * would otherwise write its row on every call. Undefined for an unknown, revoked or expired key.
 */
export async function useApiKey(em: EntityManager, key: string): Promise<LiveApiKey | undefined> {
  return boundRow<LiveApiKey>(
    em,
    `WITH k AS (SELECT id, partner_id, scopes, expires_at, last_used_at FROM api_keys
                 WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())),
     touched AS (UPDATE api_keys a SET last_used_at = now() FROM k
                  WHERE a.id = k.id AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute'))
     SELECT partner_id AS "partnerId", id AS "keyId", scopes, expires_at AS "expiresAt" FROM k`,
    [sha256(key)],
  );
}

/** Revokes every live key of the partner (signing out everywhere); returns how many. */
export async function revokeAllApiKeys(em: EntityManager, partnerId: string): Promise<number> {
  const row = await boundRow<{ n: number }>(
    em,
    `WITH revoked AS (UPDATE api_keys SET revoked_at = now()
                       WHERE partner_id = $1 AND revoked_at IS NULL RETURNING 1)
     SELECT count(*)::int AS n FROM revoked`,
    [partnerId],
  );
  return row?.n ?? 0;
}
