import { startGateway } from '@coin/gateway';
import { startIdentity } from '@coin/identity';
import { startLeaderboard } from '@coin/leaderboard';
import { startOnboarding } from '@coin/onboarding';
import { startRules } from '@coin/rules';
import { type Stack, type Starter, startStack } from '@coin/testing';
import { startWallet } from '@coin/wallet';
import { startWebhooks } from '@coin/webhooks';

/** Every service that exists, by name: an end-to-end test picks the ones it needs. */
export const starters: Record<string, Starter> = {
  identity: startIdentity,
  leaderboard: startLeaderboard,
  onboarding: startOnboarding,
  rules: startRules,
  wallet: startWallet,
  webhooks: startWebhooks,
};

export function stackWith(names: readonly string[], env: Record<string, string> = {}): Promise<Stack> {
  const services = Object.fromEntries(names.map((n) => [n, starters[n]]));
  return startStack({ services, gateway: startGateway, env });
}
