import { z } from 'zod';
import {
  email,
  emptyObject,
  guid,
  httpUrl,
  isoTimestamp,
  MAX_PASSWORD_LENGTH,
  password,
  passwordConfirmation,
  redirectAddress,
} from './common.ts';
import { operationsOf } from './operation.ts';
import { API_KEY_SCOPES } from './permissions.ts';
import {
  changePassword,
  confirmPasswordReset,
  requestPasswordReset,
  signOutEverywhere,
  tokensSchema,
} from './session-ends.ts';
import { text } from './text.ts';
import { rotateWebhookSecret, setWebhook } from './webhook-settings.ts';
import { eventKind } from './webhooks.ts';

const { http, internal } = operationsOf('identity');

export {
  changePassword,
  confirmPasswordReset,
  requestPasswordReset,
  rotateWebhookSecret,
  setWebhook,
  signOutEverywhere,
};

/** Names a partner chooses: an application, a partner, an API key. */
const name200 = text({ max: 200 });
const token = text({ max: 512 });

const partnerSchema = z
  .object({
    id: guid,
    partnerId: guid,
    applicationName: z.string(),
    clientId: z.string(),
    redirectUrl: z.string(),
    webRedirectUrl: z.string(),
    mobileRedirectUrl: z.string(),
    email: z.string(),
    partnerName: z.string(),
    userDetailsUrl: z.string(),
  })
  .meta({ id: 'Partner', description: 'A partner application, as registered.' });

export const registerPartner = http('registerPartner', 'POST /api/v1/ufel/partners', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'partner registered successfully',
  summary: 'Register a partner application',
  schemas: {
    body: z
      .strictObject({
        applicationName: name200,
        redirectUrl: httpUrl,
        webRedirectUrl: httpUrl,
        mobileRedirectUrl: redirectAddress,
        email,
        partnerName: name200,
        password,
        confirmPassword: passwordConfirmation,
        userDetailsUrl: httpUrl,
        webhookUrl: httpUrl.optional(),
      })
      .refine((b) => b.password === b.confirmPassword, {
        path: ['confirmPassword'],
        error: 'must match password',
      }),
    response: partnerSchema,
  },
});

export const login = http('login', 'POST /api/v1/ufel/partners/login', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'login successful',
  summary: 'Log a partner in: access and refresh tokens',
  schemas: {
    body: z.strictObject({ email, password: z.string().min(1).max(MAX_PASSWORD_LENGTH) }),
    response: z
      .object({
        tokens: tokensSchema,
        user: z.object({
          id: guid,
          email: z.string(),
          name: z.string(),
          userUrl: z.string(),
          createdAt: isoTimestamp,
          clientId: z.string(),
        }),
      })
      .meta({ id: 'Login', description: 'The tokens of a new session, and who logged in.' }),
  },
});

export const refreshTokens = http('refreshTokens', 'POST /api/v1/ufel/partners/refresh', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'tokens refreshed',
  summary: 'Exchange a refresh token for new tokens (rotation; reuse revokes the family)',
  schemas: {
    body: z.strictObject({ refreshToken: token }),
    response: z.object({ tokens: tokensSchema }),
  },
});

export const logout = http('logout', 'POST /api/v1/ufel/partners/logout', {
  permission: 'read',
  endsSession: true,
  message: 'logged out',
  summary: "Revoke a refresh token's family, or every refresh token of the partner",
  schemas: {
    body: z.strictObject({ refreshToken: token.optional() }),
    response: emptyObject,
  },
});

export const getMe = http('getMe', 'GET /api/v1/ufel/partners/me', {
  permission: 'read',
  message: 'partner returned',
  summary: 'The calling partner',
  schemas: {
    response: partnerSchema
      .extend({
        webhookUrl: z.string().nullable(),
        webhookEvents: z.array(eventKind),
        createdAt: isoTimestamp,
      })
      .meta({ id: 'PartnerAccount', description: 'The calling partner, with its webhook settings.' }),
  },
});

const scope = z.enum(API_KEY_SCOPES);

/** The permissions a key holds: some of the six key scopes, each once. */
const apiKeyScopes = z
  .array(scope)
  .min(1)
  .max(API_KEY_SCOPES.length)
  .refine((scopes) => new Set(scopes).size === scopes.length, { error: 'must not repeat a scope' });

/** The longest a key may live: a year (a key without `expiresAt` lives until revoked). */
const MAX_KEY_LIFETIME_DAYS = 366;

const keyExpiry = z.iso
  .datetime({ offset: true })
  .max(40)
  .refine((t) => Date.parse(t) > Date.now(), { error: 'must be in the future' })
  .refine((t) => Date.parse(t) <= Date.now() + MAX_KEY_LIFETIME_DAYS * 86_400_000, {
    error: `must be within ${MAX_KEY_LIFETIME_DAYS} days`,
  });

const apiKeySummary = z
  .object({
    id: guid,
    name: z.string(),
    prefix: z.string(),
    /** What the key may do (permissions.ts); a key made before scopes holds all six. */
    scopes: z.array(scope),
    createdAt: isoTimestamp,
    /** Null: the key lives until revoked. */
    expiresAt: isoTimestamp.nullable(),
    lastUsedAt: isoTimestamp.nullable(),
    revokedAt: isoTimestamp.nullable(),
  })
  .meta({ id: 'ApiKey', description: 'A secret API key, without the key itself.' });

export const createApiKey = http('createApiKey', 'POST /api/v1/ufel/partners/api-keys', {
  permission: 'credentials',
  stepUp: true,
  message: 'api key created',
  summary: 'Create a secret API key with its scopes and expiry (shown once)',
  schemas: {
    body: z.strictObject({
      name: text({ max: 100 }),
      /** Omitted: all six key scopes, as every key had before scopes. Grant only what the key's job needs. */
      scopes: apiKeyScopes.default([...API_KEY_SCOPES]),
      /** Omitted: until revoked. */
      expiresAt: keyExpiry.optional(),
    }),
    response: apiKeySummary
      .extend({ key: z.string() })
      .meta({ id: 'NewApiKey', description: 'A new API key, with the key: shown this once.' }),
  },
});

export const listApiKeys = http('listApiKeys', 'GET /api/v1/ufel/partners/api-keys', {
  permission: 'credentials',
  message: 'api keys returned',
  summary: "The partner's API keys (never the secret)",
  schemas: { response: z.object({ data: z.array(apiKeySummary) }) },
});

export const revokeApiKey = http('revokeApiKey', 'DELETE /api/v1/ufel/partners/api-keys/:id', {
  permission: 'credentials',
  stepUp: true,
  cutoff: 'keys',
  message: 'api key revoked',
  summary: 'Revoke an API key',
  schemas: { params: z.object({ id: guid }), response: emptyObject },
});

/** Internal: the gateway resolves a secret API key to its partner. */
export const verifyApiKey = internal('verifyApiKey', {
  partner: false,
  callers: ['gateway'],
  schemas: {
    body: z.strictObject({ key: text({ max: 200 }) }),
    response: z.object({
      partnerId: guid,
      keyId: guid,
      scopes: z.array(scope),
      /** The gateway keeps a verified key no longer than this. */
      expiresAt: isoTimestamp.nullable(),
    }),
  },
});

/** Internal: the public keys that verify access tokens (the gateway verifies locally). */
export const getJwks = internal('getJwks', {
  partner: false,
  callers: ['gateway'],
  schemas: {
    body: emptyObject,
    response: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }),
  },
});

const partnerProfile = z.object({
  partnerId: guid,
  applicationName: z.string(),
  partnerName: z.string(),
  email: z.string(),
  userDetailsUrl: z.string(),
});

/**
 * Internal: the request's partner with its webhook target and signing secret. Only the webhooks
 * service signs deliveries, so only it may ask: a service that needs the partner's names asks
 * `getPartnerProfile`.
 */
export const getPartner = internal('getPartner', {
  partner: true,
  callers: ['webhooks'],
  schemas: {
    body: emptyObject,
    response: partnerProfile.extend({
      webhookUrl: z.string().nullable(),
      webhookSecret: z.string().nullable(),
      /** Null: every kind. */
      webhookEvents: z.array(eventKind).nullable(),
    }),
  },
});

/** Internal: the request's partner without its webhook secret (the wallet names transfer parties). */
export const getPartnerProfile = internal('getPartnerProfile', {
  partner: true,
  callers: ['wallet'],
  schemas: { body: emptyObject, response: partnerProfile },
});

export const identityOperations = [
  registerPartner,
  login,
  refreshTokens,
  logout,
  signOutEverywhere,
  changePassword,
  requestPasswordReset,
  confirmPasswordReset,
  getMe,
  setWebhook,
  rotateWebhookSecret,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  verifyApiKey,
  getJwks,
  getPartner,
  getPartnerProfile,
] as const;
