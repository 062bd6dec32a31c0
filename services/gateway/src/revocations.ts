import { revocationKeys } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { ProcessContext } from '@coin/startup/process';
import type { Principal } from './principal.ts';

type Redis = ReturnType<ProcessContext<never>['redis']>;

interface Log {
  warn(obj: object, msg: string): void;
}

export interface Revocations {
  /** Whether a session's access token was revoked at logout or issued before a cutoff of its partner or member. */
  sessionRevoked(principal: Principal): Promise<boolean>;
  /** Whether an API key verified at `verifiedAtMs` must be checked with identity again (a key of its partner was revoked). */
  keysChangedSince(partnerId: string, verifiedAtMs: number): Promise<boolean>;
  /** Revokes a session's access token on every replica until it would have expired. */
  revokeToken(principal: Principal): Promise<void>;
  /** Refuses, on every replica, credentials of that kind issued (or verified) before `atMs`. */
  writeCutoff(kind: CutoffKind, id: string, atMs: number): Promise<void>;
}

export type CutoffKind = 'sessionsOfPartner' | 'sessionsOfMember' | 'keysOfPartner';

/** A cutoff outlives every access token and cached key it refuses (both live 15 minutes at most). */
const CUTOFF_TTL_MS = 24 * 3600 * 1000;

/**
 * The revocation list shared by the replicas (libs/contracts/src/revocation.ts), read on every
 * authenticated request before the verified-token cache is trusted: one MGET. When Redis does not
 * answer, the request is let through on the signature alone and a warning logged: the list only
 * shortens what a token's 15 minutes allow, and the API must not stop with Redis
 * (docs/operating/security.md).
 */
export function redisRevocations(redis: Redis, namespace: string, log: Log): Revocations {
  const keys = revocationKeys(namespace);

  async function read(names: string[]): Promise<(string | null)[] | undefined> {
    try {
      return await redis.mget(...names);
    } catch (err) {
      log.warn({ err }, 'revocation list unavailable: credentials checked on their signature alone');
      return undefined;
    }
  }

  return {
    async sessionRevoked(p) {
      if (!p.tokenId) return false;
      const names = [keys.token(p.tokenId), keys.sessionsOfPartner(p.partnerId)];
      if (p.memberId) names.push(keys.sessionsOfMember(p.memberId));
      const [revoked, ...cutoffs] = (await read(names)) ?? [];
      if (revoked) return true;
      const issuedMs = Math.round((p.issuedAt ?? 0) * 1000);
      return cutoffs.some((c) => c !== null && c !== undefined && Number(c) > issuedMs);
    },
    async keysChangedSince(partnerId, verifiedAtMs) {
      const [cutoff] = (await read([keys.keysOfPartner(partnerId)])) ?? [];
      return cutoff !== null && cutoff !== undefined && Number(cutoff) >= verifiedAtMs;
    },
    async revokeToken(p) {
      if (!p.tokenId || !p.expiresAt) return;
      const ttlMs = p.expiresAt * 1000 - Date.now();
      if (ttlMs > 0) await redis.set(keys.token(p.tokenId), '1', 'PX', ttlMs);
    },
    async writeCutoff(kind, id, atMs) {
      await redis.set(keys[kind](id), String(atMs), 'PX', CUTOFF_TTL_MS);
    },
  };
}

/** After a logout: the caller's access token is refused from now on, or the logout fails (503). */
export async function revokeCallerToken(revocations: Revocations, caller: Principal): Promise<void> {
  try {
    await revocations.revokeToken(caller);
  } catch {
    throw AppError.unavailable('the access token could not be revoked on every gateway; retry the logout', 1);
  }
}

/**
 * After identity revoked credentials in its database: the access tokens and cached keys issued before
 * now are refused on every replica, or the call fails (503) and the caller retries it (it is idempotent).
 */
export async function writeCutoffs(
  revocations: Revocations,
  writes: readonly [CutoffKind, string][],
  requestStartMs: number,
): Promise<void> {
  // Sessions: those issued before the request arrived, so tokens the call itself issues (a password
  // change) or a login after it live; keys: those verified before now, after identity revoked them.
  const now = Date.now();
  try {
    for (const [kind, id] of writes)
      await revocations.writeCutoff(kind, id, kind === 'keysOfPartner' ? now : requestStartMs);
  } catch {
    throw AppError.unavailable('the credentials could not be revoked on every gateway; retry the call', 1);
  }
}
