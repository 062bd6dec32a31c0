import { rulesDocs, walletDocs } from './coins.ts';
import { identityDocs } from './identity.ts';
import { pendingDocs } from './pending.ts';
import { teamDocs } from './team.ts';
import type { OperationDocs } from './types.ts';
import { leaderboardDocs, onboardingDocs, webhooksDocs } from './users.ts';

export { fieldDocs } from './fields.ts';
export { errorsOf } from './operation-errors.ts';
export { tagDocs } from './tags.ts';
export type { OperationDocs } from './types.ts';
export { webhookDocs } from './webhooks.ts';

/** The reference's words for every HTTP operation, by operation name. */
export const operationDocs: Record<string, OperationDocs> = {
  ...identityDocs,
  ...teamDocs,
  ...onboardingDocs,
  ...rulesDocs,
  ...walletDocs,
  ...pendingDocs,
  ...leaderboardDocs,
  ...webhooksDocs,
};
