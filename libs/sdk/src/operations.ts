import { accounts, identity, leaderboard, onboarding, rules, wallet, webhooks } from '@coin/contracts';

/**
 * Every operation a partner can call over HTTP, by the name its SDK method carries. Listed by hand
 * so each keeps its own request and response types; a test checks that none of the contracts'
 * HTTP operations is missing.
 */
export const partnerOperations = {
  registerPartner: identity.registerPartner,
  login: identity.login,
  refreshTokens: identity.refreshTokens,
  logout: identity.logout,
  getMe: identity.getMe,
  setWebhook: identity.setWebhook,
  createApiKey: identity.createApiKey,
  listApiKeys: identity.listApiKeys,
  revokeApiKey: identity.revokeApiKey,
  createAccountUser: accounts.createAccountUser,
  verifyEmail: accounts.verifyEmail,
  resendCode: accounts.resendCode,
  onboardUsers: onboarding.onboardUsers,
  getOnboardingRequest: onboarding.getOnboardingRequest,
  listOnboardingRequests: onboarding.listOnboardingRequests,
  listUsers: onboarding.listUsers,
  getPartnerUser: onboarding.getPartnerUser,
  createTier: onboarding.createTier,
  listTiers: onboarding.listTiers,
  upgradeTier: onboarding.upgradeTier,
  getTierPolicy: onboarding.getTierPolicy,
  setTierPolicy: onboarding.setTierPolicy,
  createRule: rules.createRule,
  listRules: rules.listRules,
  updateRule: rules.updateRule,
  rewardUser: rules.rewardUser,
  getRuleSettings: rules.getRuleSettings,
  setRuleSettings: rules.setRuleSettings,
  transferToUser: wallet.transferToUser,
  transferFromUser: wallet.transferFromUser,
  getUserTransactions: wallet.getUserTransactions,
  getBalance: wallet.getBalance,
  coinSummary: wallet.coinSummary,
  reverseTransfer: wallet.reverseTransfer,
  getTreasury: wallet.getTreasury,
  setTreasury: wallet.setTreasury,
  ledgerExport: wallet.ledgerExport,
  postPendingTransfer: wallet.postPendingTransfer,
  voidPendingTransfer: wallet.voidPendingTransfer,
  getPendingTransfer: wallet.getPendingTransfer,
  listPendingTransfers: wallet.listPendingTransfers,
  coinLeaderboard: leaderboard.coinLeaderboard,
  pointsLeaderboard: leaderboard.pointsLeaderboard,
  pingLeaderboard: leaderboard.ping,
  listDeliveries: webhooks.listDeliveries,
  retryDelivery: webhooks.retryDelivery,
  listEventKinds: webhooks.listEventKinds,
} as const;

export type PartnerOperations = typeof partnerOperations;
export type OperationName = keyof PartnerOperations;
