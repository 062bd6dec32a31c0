import { accountUserEmptyState } from '../accounts.ts';
import { duplicate, notFound, rateLimited, unauthorized } from './errors.ts';
import { EXAMPLE, type OperationDocs } from './types.ts';

const partner = {
  id: EXAMPLE.partnerId,
  partnerId: EXAMPLE.partnerId,
  applicationName: 'Demo',
  clientId: 'a3f1c9e27b5d4e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f',
  redirectUrl: 'https://demo.example/r',
  webRedirectUrl: 'https://demo.example/w',
  mobileRedirectUrl: 'demo://cb',
  email: 'dev@demo.example',
  partnerName: 'Demo Ltd',
  userDetailsUrl: 'https://demo.example/users',
};

const tokens = { accessToken: 'eyJhbGciOiJFZERTQSIsImtpZCI6IjEifQ.eyJzdWIiOiI…', refreshToken: 'rt_8Jx2…' };

const apiKey = {
  id: EXAMPLE.keyId,
  name: 'backend',
  prefix: 'ck_live_2eUwG5',
  scopes: ['read', 'coins'],
  createdAt: EXAMPLE.at,
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
};

const accountUser = {
  id: EXAMPLE.storedUserId,
  fullname: 'Ada Lovelace',
  tag: 'ada',
  email: 'ada@example.com',
  emailVerified: false,
  emailCodeExpiresAt: EXAMPLE.at,
  emailVerifiedAt: null,
  phone: '8012345678',
  dateOfBirth: '1990-12-10',
  dateJoined: EXAMPLE.at,
  countryCode: '+234',
  isAdult: true,
  ...accountUserEmptyState,
};

const password = 'correct horse battery';

export const identityDocs: Record<string, OperationDocs> = {
  registerPartner: {
    description:
      'Creates your partner account. `id` and `partnerId` are the same value: your partner id. Passwords are hashed with argon2id. `webhookUrl` may be set here or later with `PUT /partners/webhook`. Limited per client address.',
    errors: { 409: duplicate('a partner with this e-mail exists') },
    request: {
      applicationName: 'Demo',
      redirectUrl: 'https://demo.example/r',
      webRedirectUrl: 'https://demo.example/w',
      mobileRedirectUrl: 'demo://cb',
      email: 'dev@demo.example',
      partnerName: 'Demo Ltd',
      password,
      confirmPassword: password,
      userDetailsUrl: 'https://demo.example/users',
    },
    response: partner,
  },
  login: {
    description:
      'Exchanges e-mail and password for an access token (15 minutes) and a refresh token (30 days, single-use). Five failed logins for one e-mail within 15 minutes lock it for the rest of the window.',
    errors: {
      401: unauthorized('e-mail or password is incorrect'),
      429: rateLimited('too many failed logins for this e-mail'),
    },
    request: { email: 'dev@demo.example', password },
    response: {
      tokens,
      user: {
        id: EXAMPLE.partnerId,
        email: 'dev@demo.example',
        name: 'Demo Ltd',
        userUrl: 'https://demo.example/users',
        createdAt: EXAMPLE.at,
        clientId: partner.clientId,
      },
    },
  },
  refreshTokens: {
    description:
      'Rotates the pair: the refresh token given is spent and a new pair returned. Presenting a spent refresh token again revokes every token of its login (it has leaked).',
    errors: { 401: unauthorized('the refresh token is invalid, expired, spent or revoked') },
    request: { refreshToken: 'rt_8Jx2…' },
    response: { tokens },
  },
  logout: {
    description:
      "Revokes the given refresh token's family, or, when none is given (no body is needed), every refresh token of the signed-in member, recorded in the audit log. The access token the call is made with is refused at once by every gateway; the member's other access tokens stay valid until they expire.",
    request: { refreshToken: 'rt_8Jx2…' },
    response: {},
  },
  signOutEverywhere: {
    description:
      'Ends every session of every member of your team: their refresh tokens are revoked, and every access token issued before this call (yours too) is refused at once by every gateway. With `revokeApiKeys: true` every API key is revoked too, also at once. Recorded in the audit log. Needs a login session whose password was entered in the last 5 minutes, never an API key.',
    request: { revokeApiKeys: false },
    response: { sessionsRevoked: 3, apiKeysRevoked: 0 },
  },
  changePassword: {
    description:
      "Changes the signed-in member's password. `currentPassword` must be the present one (422 `INVALID_PASSWORD` otherwise). Every other session of the member ends at once on every gateway, the one the call is made with too: use the tokens in the answer from now on. Needs a login session, never an API key.",
    errors: { 422: [{ code: 'INVALID_PASSWORD', when: '`currentPassword` is not the present password' }] },
    request: { currentPassword: 'correct horse battery staple', newPassword: 'a new long passphrase' },
    response: { tokens },
  },
  requestPasswordReset: {
    description:
      'E-mails a link that sets a new password, single use and valid for an hour (at most one a minute per member). The answer is the same whether or not the e-mail can log in.',
    request: { email: 'partner@example.com' },
    response: {},
  },
  confirmPasswordReset: {
    description:
      "Follows a reset link: sets the member's password and ends every session of the member at once on every gateway. Log in with the new password afterwards.",
    errors: { 422: [{ code: 'INVALID_TOKEN', when: 'the link is unknown, used or expired' }] },
    request: { token: 'Yk3…', newPassword: 'a new long passphrase' },
    response: { memberId: '6f1c2a7e-4b1d-4c55-9a2e-0d6b1f3e8a90' },
  },
  getMe: {
    description:
      'Your partner account, with the webhook URL (never the secret) and the event kinds sent to it (`webhookEvents`).',
    response: {
      ...partner,
      webhookUrl: 'https://demo.example/hooks',
      webhookEvents: ['USER_ONBOARDING', 'COINS_TRANSFERRED'],
      createdAt: EXAMPLE.at,
    },
  },
  setWebhook: {
    description:
      'Sets where webhooks go. The first URL set creates the signing secret (`whsec_…`) and this answer shows it, once; a later URL change keeps the secret and does not show it (`rotateWebhookSecret` replaces it, with a recent password; `rotateSecret: true` here is refused). Setting a URL re-enables one disabled by a 410 answer. `events` names the kinds sent (see `GET /api/v1/laas/webhooks/events`); without it every kind is sent, kinds added later included. The answer\u2019s `events` lists the kinds in force. Events recorded before the change keep their deliveries.',
    request: {
      url: 'https://demo.example/hooks',
      rotateSecret: false,
      events: ['USER_ONBOARDING', 'COINS_TRANSFERRED'],
    },
    response: {
      url: 'https://demo.example/hooks',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      events: ['USER_ONBOARDING', 'COINS_TRANSFERRED'],
    },
  },
  rotateWebhookSecret: {
    description:
      'Replaces the webhook signing secret: deliveries are signed with the new one from now on, and this answer is the only place it is shown. Needs a login session whose password was entered in the last 5 minutes, never an API key.',
    response: { secret: 'whsec_Q2v9Lr7TzX1pWm4Ks8Nd3Hb6Yc0Fj5Ga' },
  },
  createApiKey: {
    description:
      "Creates a secret API key for server-to-server calls. It is shown only in this answer and stored hashed; send it as `Authorization: Bearer ck_live_…`. `scopes` are what it may do (`read`, `users`, `rules`, `coins`, `export`, `webhooks`; omitted: all six): grant only what the key's job needs, an operation outside them answers 403 `FORBIDDEN` naming the scope. `expiresAt` (ISO 8601, within a year) ends it; omitted, it lives until revoked. The key ends in a checksum, so a mistyped one is refused at once. Needs a login session whose password was entered in the last 5 minutes.",
    request: { name: 'backend', scopes: ['read', 'coins'] },
    response: { ...apiKey, key: 'ck_live_2eUwG5VtttVn7JL0USGLl77WLbEz76RYn7kQpV8htm2_29hp39' },
  },
  listApiKeys: {
    description: 'Your API keys, newest first, revoked ones included; never the secret.',
    response: { data: [apiKey] },
  },
  revokeApiKey: {
    description:
      'Revokes a key; every gateway stops accepting it within 30 seconds. Needs a login session whose password was entered in the last 5 minutes.',
    errors: { 404: notFound('no key of yours has this id') },
    response: {},
  },
  createAccountUser: {
    description:
      "Creates an end-user account directly on the service and e-mails it a 6-digit one-time code (valid 10 minutes). The answer is the same whether or not the e-mail already has an account (then nothing is stored or sent); the mail carries only the code and the service's own words.",
    errors: {
      409: [{ code: '', when: '`Tag Already Taken` (the code is empty, as the specification shows)' }],
    },
    request: {
      email: 'ada@example.com',
      fullname: 'Ada Lovelace',
      password,
      confirmPassword: password,
      phone: '8012345678',
      tag: 'ada',
      isAdult: true,
      dateOfBirth: '1990-12-10',
      countryCode: '+234',
    },
    response: accountUser,
  },
  requestLoginUnlock: {
    description:
      "Sends the partner at this e-mail a single-use link (valid 1 hour) that lifts its login throttles, e.g. after someone else's failed logins from its address. The answer is the same whether or not the e-mail has an account; at most one link a minute per e-mail.",
    request: { email: 'partner@example.com' },
    response: {},
  },
  unlockLogin: {
    description:
      'The link the unlock e-mail carries: lifts every login throttle of the e-mail it was sent to. Works once, for an hour.',
    errors: { 422: [{ code: 'INVALID_TOKEN', when: 'the link is unknown, used or expired' }] },
    query: { token: 'Zk9x…' },
    response: {},
  },
  verifyEmail: {
    description:
      "Verifies an account user's e-mail with the code sent to it (5 tries per code). Every failure is the same answer, whether or not the e-mail has an account.",
    errors: {
      422: [
        {
          code: 'INVALID_CODE',
          when: 'the code is wrong, expired or out of tries, or no account awaits verification at this e-mail',
        },
      ],
    },
    request: { email: 'ada@example.com', code: '123456' },
    response: { ...accountUser, emailVerified: true, emailCodeExpiresAt: null, emailVerifiedAt: EXAMPLE.at },
  },
  resendCode: {
    description:
      'Sends a new one-time code to an account user awaiting verification; the previous one stops working. At most one a minute and 5 a day per account; the answer is the same whether a code was sent or not, and whether or not the e-mail has an account.',
    errors: {},
    request: { email: 'ada@example.com' },
    response: { email: 'ada@example.com', emailCodeExpiresAt: EXAMPLE.at },
  },
};
