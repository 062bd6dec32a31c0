import { randomUUID } from 'node:crypto';
import { handle } from '@coin/bus';
import { API_KEY_PREFIX, identity } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { InferEntity } from '@mikro-orm/core';
import type { IdentityDeps } from '../deps.ts';
import { ApiKey } from '../entities.ts';
import { newApiKey, sha256 } from '../security/secrets.ts';

function keyView(k: InferEntity<typeof ApiKey>) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

/** The key is shown once, here; only its SHA-256 is stored (it has 256 bits of entropy, so no KDF). */
export function createApiKeyHandler(deps: IdentityDeps) {
  return handle(identity.createApiKey, async ({ partnerId, body }) => {
    const em = deps.orm.em;
    const key = newApiKey();
    const row = em.create(ApiKey, {
      id: randomUUID(),
      partnerId: partnerId!,
      name: body.name,
      prefix: key.slice(0, API_KEY_PREFIX.length + 6),
      keyHash: sha256(key),
      lastUsedAt: null,
      revokedAt: null,
    });
    await em.flush();
    return { ...keyView(row), key };
  });
}

export function listApiKeysHandler(deps: IdentityDeps) {
  return handle(identity.listApiKeys, async ({ partnerId }) => {
    const rows = await deps.orm.em.find(
      ApiKey,
      { partnerId: partnerId! },
      { orderBy: { createdAt: 'desc' } },
    );
    return { data: rows.map(keyView) };
  });
}

export function revokeApiKeyHandler(deps: IdentityDeps) {
  return handle(identity.revokeApiKey, async ({ partnerId, params }) => {
    const updated = await deps.orm.em.nativeUpdate(
      ApiKey,
      { id: params.id, partnerId: partnerId!, revokedAt: null },
      { revokedAt: new Date() },
    );
    if (updated === 0) {
      const exists = await deps.orm.em.count(ApiKey, { id: params.id, partnerId: partnerId! });
      if (!exists) throw AppError.notFound('api key not found');
    }
    return {};
  });
}

export function verifyApiKeyHandler(deps: IdentityDeps) {
  return handle(identity.verifyApiKey, async ({ body }) => {
    const em = deps.orm.em;
    const [row] = await em.execute<{ id: string; partner_id: string }[]>(
      `UPDATE api_keys SET last_used_at = now()
        WHERE key_hash = ? AND revoked_at IS NULL RETURNING id, partner_id`,
      [sha256(body.key)],
    );
    if (!row) throw AppError.unauthorized('api key is invalid or revoked');
    return { partnerId: row.partner_id, keyId: row.id };
  });
}
