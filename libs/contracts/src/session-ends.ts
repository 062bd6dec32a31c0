import { z } from 'zod';
import { email, emptyObject, guid, MAX_PASSWORD_LENGTH, password } from './common.ts';
import { operationsOf } from './operation.ts';

/** Identity's operations that end sessions at once on every gateway (the contract's `cutoff`). */
const { http } = operationsOf('identity');

export const tokensSchema = z
  .object({ accessToken: z.string(), refreshToken: z.string() })
  .meta({ id: 'Tokens', description: 'An access token (15 minutes) and a single-use refresh token.' });

export const signOutEverywhere = http('signOutEverywhere', 'POST /api/v1/ufel/partners/sign-out-everywhere', {
  permission: 'credentials',
  stepUp: true,
  cutoff: 'partner',
  message: 'signed out everywhere',
  summary: 'End every session of every member at once, and optionally revoke every API key',
  schemas: {
    body: z.strictObject({ revokeApiKeys: z.boolean().default(false) }),
    response: z.object({ sessionsRevoked: z.number().int(), apiKeysRevoked: z.number().int() }),
  },
});

export const changePassword = http('changePassword', 'POST /api/v1/ufel/partners/password', {
  permission: 'read',
  cutoff: 'caller',
  message: 'password changed',
  summary: "Change the signed-in member's password: every other session ends, this one gets new tokens",
  schemas: {
    body: z.strictObject({
      currentPassword: z.string().min(1).max(MAX_PASSWORD_LENGTH),
      newPassword: password,
    }),
    response: z.object({ tokens: tokensSchema }),
  },
});

export const requestPasswordReset = http(
  'requestPasswordReset',
  'POST /api/v1/ufel/partners/password/reset',
  {
    auth: 'none',
    rateLimit: 'auth',
    message: 'if this e-mail can log in, a password reset link has been sent to it',
    summary: 'E-mail a single-use link that sets a new password (1 hour)',
    schemas: { body: z.strictObject({ email }), response: emptyObject },
  },
);

export const confirmPasswordReset = http(
  'confirmPasswordReset',
  'POST /api/v1/ufel/partners/password/reset/confirm',
  {
    auth: 'none',
    rateLimit: 'auth',
    cutoff: 'answer',
    message: 'password reset',
    summary: "Follow a reset link: set the member's password and end every session of the member",
    schemas: {
      body: z.strictObject({ token: z.string().min(1).max(100), newPassword: password }),
      response: z.object({ memberId: guid }),
    },
  },
);
