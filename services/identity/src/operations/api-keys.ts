import { handle } from '@coin/bus';
import { identity } from '@coin/contracts';
import { isoTime } from '@coin/db';
import { AppError } from '@coin/errors';
import type { IdentityDeps } from '../deps.ts';
import { recordAudit } from '../domain/audit/audit-log.ts';
import {
  type ApiKeyRecord,
  listApiKeys,
  revokeApiKey,
  storeApiKey,
  useApiKey,
} from '../domain/security/api-keys.ts';
import { newApiKey } from '../domain/security/secrets.ts';

function keyView(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    createdAt: isoTime(k.createdAt),
    expiresAt: k.expiresAt && isoTime(k.expiresAt),
    lastUsedAt: k.lastUsedAt && isoTime(k.lastUsedAt),
    revokedAt: k.revokedAt && isoTime(k.revokedAt),
  };
}

/** The key is shown once, here. */
function createApiKeyHandler(deps: IdentityDeps) {
  return handle(identity.createApiKey, async ({ partnerId, body, actor, clientIp }) => {
    const key = newApiKey();
    return deps.db.em.transactional(async (tx) => {
      const stored = await storeApiKey(tx, partnerId, body, key);
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.createApiKey.name,
        summary: `created the API key ${stored.name} (${stored.prefix}…)`,
        details: { keyId: stored.id, name: stored.name, prefix: stored.prefix, scopes: stored.scopes },
      });
      return { ...keyView(stored), key };
    });
  });
}

function listApiKeysHandler(deps: IdentityDeps) {
  return handle(identity.listApiKeys, async ({ partnerId }) => ({
    data: (await listApiKeys(deps.db.em, partnerId)).map(keyView),
  }));
}

function revokeApiKeyHandler(deps: IdentityDeps) {
  return handle(identity.revokeApiKey, async ({ partnerId, params, actor, clientIp }) =>
    deps.db.em.transactional(async (tx) => {
      if (!(await revokeApiKey(tx, partnerId, params.id))) throw AppError.notFound('api key not found');
      await recordAudit(tx, {
        partnerId,
        actor,
        clientIp,
        action: identity.revokeApiKey.name,
        summary: `revoked the API key ${params.id}`,
        details: { keyId: params.id },
      });
      return {};
    }),
  );
}

function verifyApiKeyHandler(deps: IdentityDeps) {
  return handle(identity.verifyApiKey, async ({ body }) => {
    const owner = await useApiKey(deps.db.em, body.key);
    if (!owner) throw AppError.unauthorized('api key is invalid, revoked or expired');
    return { ...owner, expiresAt: owner.expiresAt && isoTime(owner.expiresAt) };
  });
}

/** The API key operations: create, list, revoke, and verify (the gateway's internal check). */
export function apiKeyHandlers(deps: IdentityDeps) {
  return [
    createApiKeyHandler(deps),
    listApiKeysHandler(deps),
    revokeApiKeyHandler(deps),
    verifyApiKeyHandler(deps),
  ];
}
