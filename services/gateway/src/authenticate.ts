import { callOperation, type NatsConnection } from '@coin/bus';
import { ACCESS_TOKEN, API_KEY_PREFIX, identity, isWellFormedApiKey } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { apiKeyPrincipal, type Principal, sessionPrincipal } from './principal.ts';
import type { Revocations } from './revocations.ts';
import type { VerificationKeys } from './verification-keys.ts';

interface Options {
  nc: NatsConnection;
  keys: VerificationKeys;
  timeoutMs: number;
  apiKeyCacheMs: number;
  /** How long a key identity did not know is refused here without asking again. */
  apiKeyMissCacheMs: number;
  revocations: Revocations;
}

interface VerifiedKey {
  principal: Principal;
  at: number;
}

const API_KEY_CACHE_MAX = 10_000;
const VERIFIED_TOKEN_CACHE_MAX = 10_000;
const VERIFIED_TOKEN_CACHE_MS = 60_000;

/**
 * Access tokens are verified here, without a NATS hop, against the identity key their header names
 * (`kid`; see verification-keys.ts). Secret API keys are checked by identity and cached briefly.
 * Before either cache is trusted, the replicas' shared revocation list is read (revocations.ts): a
 * logged-out token is refused at once everywhere, and a cached key is checked again once a key of
 * its partner was revoked.
 */
export function createAuthenticator(opts: Options) {
  const apiKeys = new LRUCache<string, VerifiedKey>({ max: API_KEY_CACHE_MAX });
  // Keys identity refused: a client repeating one costs no bus call and no database read.
  const unknownKeys = new LRUCache<string, AppError>({ max: API_KEY_CACHE_MAX });
  // A token is immutable: once its signature checked out, the same string needs no second
  // signature check until it expires (bounded, so a key rotation is picked up within a minute).
  const verifiedTokens = new LRUCache<string, Principal>({ max: VERIFIED_TOKEN_CACHE_MAX });

  function keyIdOf(token: string): string {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw AppError.unauthorized('access token is invalid');
    }
    if (typeof kid !== 'string' || kid === '') throw AppError.unauthorized('access token names no key (kid)');
    return kid;
  }

  async function verifyJwt(token: string, requestId: string): Promise<Principal> {
    const principal = verifiedTokens.get(token) ?? (await verifySignature(token, requestId));
    if (await opts.revocations.sessionRevoked(principal))
      throw AppError.unauthorized('access token has been revoked');
    return principal;
  }

  async function verifySignature(token: string, requestId: string): Promise<Principal> {
    const keySet = await opts.keys.forKid(keyIdOf(token), requestId);
    if (!keySet) throw AppError.unauthorized('access token is signed with an unknown key');
    try {
      const { payload } = await jwtVerify(token, keySet, {
        algorithms: [ACCESS_TOKEN.algorithm],
        issuer: ACCESS_TOKEN.issuer,
        audience: ACCESS_TOKEN.audience,
        requiredClaims: ['sub', 'exp'],
      });
      if (payload.typ !== 'access') throw AppError.unauthorized('token is not an access token');
      const principal = sessionPrincipal({ ...payload, sub: payload.sub! });
      const ttl = Math.min(payload.exp! * 1000 - Date.now(), VERIFIED_TOKEN_CACHE_MS);
      if (ttl > 0) verifiedTokens.set(token, principal, { ttl });
      return principal;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw AppError.unauthorized('access token has expired');
      throw AppError.unauthorized('access token is invalid');
    }
  }

  const callVerify = (key: string, requestId: string) =>
    callOperation(
      opts.nc,
      identity.verifyApiKey,
      { body: { key } },
      { timeoutMs: opts.timeoutMs, requestId },
    );

  async function verifyApiKey(key: string, requestId: string): Promise<Principal> {
    const cached = apiKeys.get(key);
    if (cached && !(await opts.revocations.keysChangedSince(cached.principal.partnerId, cached.at)))
      return cached.principal;
    // A key identity cannot have issued (a typo, a truncation, a guess) costs no bus call.
    if (!isWellFormedApiKey(key))
      throw AppError.unauthorized('api key is malformed: its checksum does not match');
    const refused = unknownKeys.get(key);
    if (refused) throw refused;
    const at = Date.now();
    let verified: Awaited<ReturnType<typeof callVerify>>;
    try {
      verified = await callVerify(key, requestId);
    } catch (err) {
      if (err instanceof AppError && err.status === 401 && opts.apiKeyMissCacheMs > 0)
        unknownKeys.set(key, err, { ttl: opts.apiKeyMissCacheMs });
      throw err;
    }
    const principal = apiKeyPrincipal(verified);
    // Kept no longer than the key lives.
    const ttl = Math.min(
      opts.apiKeyCacheMs,
      verified.expiresAt ? Date.parse(verified.expiresAt) - Date.now() : opts.apiKeyCacheMs,
    );
    if (ttl > 0) apiKeys.set(key, { principal, at }, { ttl });
    return principal;
  }

  return async function authenticate(header: string | undefined, requestId: string): Promise<Principal> {
    if (!header) throw AppError.unauthorized('Authorization header with a Bearer token is required');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw AppError.unauthorized('Authorization header must be "Bearer <token>"');
    const token = match[1];
    if (token.length > 4096) throw AppError.unauthorized('access token is invalid');
    return token.startsWith(API_KEY_PREFIX) ? verifyApiKey(token, requestId) : verifyJwt(token, requestId);
  };
}
