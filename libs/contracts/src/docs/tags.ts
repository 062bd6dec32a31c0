import type { ServiceName } from '../operation.ts';

/** The reference's groups of operations: one per service, and the webhook events. */
export const tagDocs: Record<ServiceName | 'webhook events', string> = {
  identity:
    'Your partner account: register, log in, refresh and revoke tokens, API keys, the webhook URL, your team (members, invitations, roles) and the audit log; and account users (people signing up on the service directly).',
  onboarding:
    'Your users: onboard them in bulk, follow onboarding requests, read users, define tiers (with thresholds tier rules follow) and move users between them.',
  rules:
    'Reward rules: create, list, activate or deactivate them, set the time zone their limits count in, and reward a user by a rule (once per user or up to a limit per period, up to its participant cap and budget).',
  wallet:
    'Coins: transfers between you and your users, balances, history, reversals, the monthly summary, the treasury and its issuance limit, and the verifiable ledger export.',
  leaderboard: 'The coin leaderboard of a calendar month and the all-time points leaderboard.',
  webhooks: 'The webhook deliveries sent to you, with every attempt; redeliver one; the event kinds.',
  'webhook events':
    'What the service POSTs to your webhook URL, signed with Standard Webhooks headers. These are calls you receive, not operations you call.',
};
