/**
 * One model for what a credential may do: every partner operation declares the permission it needs
 * (`permission` in its contract), an API key holds the scopes chosen at its creation, and a session
 * holds its member's role's permissions. The gateway compares the two before the body is read.
 */
export const PERMISSIONS = [
  /** GET anything of the partner. */
  'read',
  /** Onboard and modify users, and the tiers of a user. */
  'users',
  /** Create and update rules and tiers. */
  'rules',
  /** Move coins: transfers, rewards, reversals, pending transfers posted or voided. */
  'coins',
  /** The ledger export. */
  'export',
  /** The webhook URL, its event kinds and redeliveries; not the signing secret. */
  'webhooks',
  /** Session only: API keys, the webhook signing secret, signing out everywhere. */
  'credentials',
  /** Session only: the issuance limit. */
  'treasury',
  /** Session only: members, invitations and roles. */
  'team',
  /** Session only: reading the audit log. */
  'audit',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** What an API key can be granted; every other permission needs a session. */
export const API_KEY_SCOPES = ['read', 'users', 'rules', 'coins', 'export', 'webhooks'] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function isApiKeyScope(permission: Permission): permission is ApiKeyScope {
  return (API_KEY_SCOPES as readonly Permission[]).includes(permission);
}

export const ROLES = ['owner', 'admin', 'developer', 'finance', 'support', 'viewer'] as const;

export type Role = (typeof ROLES)[number];

/**
 * A session's permissions are its member's role's. An admin holds every permission but cannot demote
 * or remove an owner (the team operations check that, not this table).
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  developer: ['read', 'webhooks', 'credentials', 'audit'],
  finance: ['read', 'coins', 'export', 'treasury'],
  support: ['read'],
  viewer: ['read'],
};

/**
 * An operation declared with `stepUp: true` (managing credentials and money policy) also needs a
 * session whose password was entered at most this long ago (the token's `auth_time`).
 */
export const STEP_UP_MAX_AGE_SECONDS = 300;

/** The 403 texts, here so that the gateway, the reference and the SDK's docs say the same. */
export const forbiddenText = {
  missing: (permission: Permission) => `This credential lacks the '${permission}' permission`,
  sessionOnly: (permission: Permission) =>
    `This operation needs a login session: an API key cannot hold the '${permission}' permission`,
  stepUp: () =>
    `This operation needs a recent password: sign in again or re-authenticate (password entered within the last ${STEP_UP_MAX_AGE_SECONDS / 60} minutes)`,
};
