import './validation.ts';
import { accountOperations } from './accounts.ts';
import { identityOperations } from './identity.ts';
import { leaderboardOperations } from './leaderboard.ts';
import { loginUnlockOperations } from './login-unlock.ts';
import { onboardingOperations } from './onboarding.ts';
import type { Operation } from './operation.ts';
import { rulesOperations } from './rules.ts';
import { teamOperations } from './team.ts';
import { walletOperations } from './wallet.ts';
import { webhooksOperations } from './webhooks.ts';

export * as accounts from './accounts.ts';
export * from './actor.ts';
export * from './api-key-format.ts';
export * from './auth.ts';
export * from './body-limits.ts';
export * from './broadcasts.ts';
export * from './client-key.ts';
export * from './common.ts';
export * from './events.ts';
export * as identity from './identity.ts';
export * as leaderboard from './leaderboard.ts';
export * as loginUnlock from './login-unlock.ts';
export * as onboarding from './onboarding.ts';
export * from './operation.ts';
export * from './permissions.ts';
export * from './revocation.ts';
export * as rules from './rules.ts';
export * as team from './team.ts';
export * from './text.ts';
export * from './user-data.ts';
export {
  formatIssues,
  type PartsResult,
  parseRequestParts,
  type RequestParts,
} from './validation.ts';
// The large-request worker pool (piscina, Node only) is the subpath `@coin/contracts/validation-pool`:
// the SDK imports this index, and the dashboard's browser bundle must stay free of it.
export * as wallet from './wallet.ts';
export * from './wallet-events.ts';
export * as webhooks from './webhooks.ts';

/** Every operation of the system; the gateway's routes and the OpenAPI document come from here. */
export const allOperations: readonly Operation[] = [
  ...identityOperations,
  ...teamOperations,
  ...loginUnlockOperations,
  ...accountOperations,
  ...onboardingOperations,
  ...rulesOperations,
  ...walletOperations,
  ...leaderboardOperations,
  ...webhooksOperations,
];
export * as docs from './docs/index.ts';
