import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  forbiddenText,
  isApiKeyScope,
  type Operation,
  type Permission,
  ROLE_PERMISSIONS,
  ROLES,
  type Role,
  STEP_UP_MAX_AGE_SECONDS,
} from '@coin/contracts';
import { AppError } from '@coin/errors';

/** Who is calling: the partner, the kind of credential and what it may do. */
export interface Principal {
  partnerId: string;
  kind: 'session' | 'apiKey';
  permissions: ReadonlySet<Permission>;
  /** Sessions: when the password was last entered (epoch seconds; the token's `auth_time`). */
  authTime?: number;
  /** Sessions of a team member (the token's `mid`); absent for the partner's own login. */
  memberId?: string;
  /** Sessions: the access token's id (`jti`), issue and expiry times (epoch seconds), for its revocation. */
  tokenId?: string;
  issuedAt?: number;
  expiresAt?: number;
  /** API keys: the key's id. */
  keyId?: string;
}

/** The claims of an access token that say who and what (identity signs them). */
export interface SessionClaims {
  sub: string;
  jti?: string;
  iat?: number;
  exp?: number;
  auth_time?: unknown;
  mid?: unknown;
  role?: unknown;
}

function roleOf(claim: unknown): Role {
  // A token without a role is the partner's own login: the owner.
  return typeof claim === 'string' && (ROLES as readonly string[]).includes(claim)
    ? (claim as Role)
    : 'owner';
}

export function sessionPrincipal(claims: SessionClaims): Principal {
  return {
    partnerId: claims.sub,
    kind: 'session',
    permissions: new Set(ROLE_PERMISSIONS[roleOf(claims.role)]),
    authTime: typeof claims.auth_time === 'number' ? claims.auth_time : undefined,
    memberId: typeof claims.mid === 'string' ? claims.mid : undefined,
    tokenId: claims.jti,
    issuedAt: claims.iat,
    expiresAt: claims.exp,
  };
}

/** An API key's permissions are its scopes; a key stored before scopes existed holds all six. */
export function apiKeyPrincipal(key: {
  partnerId: string;
  keyId: string;
  scopes?: readonly ApiKeyScope[];
}): Principal {
  return {
    partnerId: key.partnerId,
    kind: 'apiKey',
    permissions: new Set(key.scopes ?? API_KEY_SCOPES),
    keyId: key.keyId,
  };
}

/**
 * Refuses, 403 in the envelope, a principal that lacks the operation's permission, or a step-up
 * operation to anything but a session whose password is recent.
 */
export function authorize(principal: Principal, op: Operation, nowMs = Date.now()): void {
  const http = op.http;
  if (!http?.permission) throw new Error(`operation ${op.name} declares no permission`);
  const { permission } = http;
  if (!principal.permissions.has(permission)) {
    throw AppError.forbidden(
      principal.kind === 'apiKey' && !isApiKeyScope(permission)
        ? forbiddenText.sessionOnly(permission)
        : forbiddenText.missing(permission),
    );
  }
  if (!http.stepUp) return;
  const fresh =
    principal.kind === 'session' &&
    principal.authTime !== undefined &&
    nowMs / 1000 - principal.authTime <= STEP_UP_MAX_AGE_SECONDS;
  if (!fresh) throw AppError.forbidden(forbiddenText.stepUp(), 'STEP_UP_REQUIRED');
}
