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
import { defineOperation } from './operation.ts';
import { text } from './text.ts';

/** Names a partner chooses: an application, a partner, an API key. */
const name200 = text({ max: 200 });
const token = text({ max: 512 });

export const partnerSchema = z.object({
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
});

const tokensSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });

export const registerPartner = defineOperation({
  service: 'identity',
  name: 'registerPartner',
  http: {
    method: 'POST',
    path: '/api/v1/ufel/partners',
    auth: 'none',
    rateLimit: 'auth',
    message: 'partner registered successfully',
    summary: 'Register a partner application',
  },
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

export const login = defineOperation({
  service: 'identity',
  name: 'login',
  http: {
    method: 'POST',
    path: '/api/v1/ufel/partners/login',
    auth: 'none',
    rateLimit: 'auth',
    message: 'login successful',
    summary: 'Log a partner in: access and refresh tokens',
  },
  schemas: {
    body: z.strictObject({ email, password: z.string().min(1).max(MAX_PASSWORD_LENGTH) }),
    response: z.object({
      tokens: tokensSchema,
      user: z.object({
        id: guid,
        email: z.string(),
        name: z.string(),
        userUrl: z.string(),
        createdAt: isoTimestamp,
        clientId: z.string(),
      }),
    }),
  },
});

export const refreshTokens = defineOperation({
  service: 'identity',
  name: 'refreshTokens',
  http: {
    method: 'POST',
    path: '/api/v1/ufel/partners/refresh',
    auth: 'none',
    rateLimit: 'auth',
    message: 'tokens refreshed',
    summary: 'Exchange a refresh token for new tokens (rotation; reuse revokes the family)',
  },
  schemas: {
    body: z.strictObject({ refreshToken: token }),
    response: z.object({ tokens: tokensSchema }),
  },
});

export const logout = defineOperation({
  service: 'identity',
  name: 'logout',
  http: {
    method: 'POST',
    path: '/api/v1/ufel/partners/logout',
    auth: 'partner',
    message: 'logged out',
    summary: "Revoke a refresh token's family, or every refresh token of the partner",
  },
  schemas: {
    body: z.strictObject({ refreshToken: token.optional() }),
    response: emptyObject,
  },
});

export const getMe = defineOperation({
  service: 'identity',
  name: 'getMe',
  http: {
    method: 'GET',
    path: '/api/v1/ufel/partners/me',
    auth: 'partner',
    message: 'partner returned',
    summary: 'The calling partner',
  },
  schemas: {
    response: partnerSchema.extend({ webhookUrl: z.string().nullable(), createdAt: isoTimestamp }),
  },
});

export const setWebhook = defineOperation({
  service: 'identity',
  name: 'setWebhook',
  http: {
    method: 'PUT',
    path: '/api/v1/ufel/partners/webhook',
    auth: 'partner',
    message: 'webhook updated',
    summary: 'Set the webhook URL; returns the signing secret (whsec_…)',
  },
  schemas: {
    body: z.strictObject({ url: httpUrl, rotateSecret: z.boolean().default(false) }),
    response: z.object({ url: z.string(), secret: z.string() }),
  },
});

const apiKeySummary = z.object({
  id: guid,
  name: z.string(),
  prefix: z.string(),
  createdAt: isoTimestamp,
  lastUsedAt: isoTimestamp.nullable(),
  revokedAt: isoTimestamp.nullable(),
});

export const createApiKey = defineOperation({
  service: 'identity',
  name: 'createApiKey',
  http: {
    method: 'POST',
    path: '/api/v1/ufel/partners/api-keys',
    auth: 'partner',
    message: 'api key created',
    summary: 'Create a secret API key (shown once)',
  },
  schemas: {
    body: z.strictObject({ name: text({ max: 100 }) }),
    response: apiKeySummary.extend({ key: z.string() }),
  },
});

export const listApiKeys = defineOperation({
  service: 'identity',
  name: 'listApiKeys',
  http: {
    method: 'GET',
    path: '/api/v1/ufel/partners/api-keys',
    auth: 'partner',
    message: 'api keys returned',
    summary: "The partner's API keys (never the secret)",
  },
  schemas: { response: z.object({ data: z.array(apiKeySummary) }) },
});

export const revokeApiKey = defineOperation({
  service: 'identity',
  name: 'revokeApiKey',
  http: {
    method: 'DELETE',
    path: '/api/v1/ufel/partners/api-keys/:id',
    auth: 'partner',
    message: 'api key revoked',
    summary: 'Revoke an API key',
  },
  schemas: { params: z.object({ id: guid }), response: emptyObject },
});

/** Internal: the gateway resolves a secret API key to its partner. */
export const verifyApiKey = defineOperation({
  service: 'identity',
  name: 'verifyApiKey',
  partner: false,
  callers: ['gateway'],
  schemas: {
    body: z.strictObject({ key: text({ max: 200 }) }),
    response: z.object({ partnerId: guid, keyId: guid }),
  },
});

/** Internal: the public keys that verify access tokens (the gateway verifies locally). */
export const getJwks = defineOperation({
  service: 'identity',
  name: 'getJwks',
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
export const getPartner = defineOperation({
  service: 'identity',
  name: 'getPartner',
  partner: true,
  callers: ['webhooks'],
  schemas: {
    body: emptyObject,
    response: partnerProfile.extend({
      webhookUrl: z.string().nullable(),
      webhookSecret: z.string().nullable(),
    }),
  },
});

/** Internal: the request's partner without its webhook secret (the wallet names transfer parties). */
export const getPartnerProfile = defineOperation({
  service: 'identity',
  name: 'getPartnerProfile',
  partner: true,
  callers: ['wallet'],
  schemas: { body: emptyObject, response: partnerProfile },
});

export const identityOperations = [
  registerPartner,
  login,
  refreshTokens,
  logout,
  getMe,
  setWebhook,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  verifyApiKey,
  getJwks,
  getPartner,
  getPartnerProfile,
] as const;
