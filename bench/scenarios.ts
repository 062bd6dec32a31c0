import { leaderboardScenario } from './leaderboard.ts';
import { onboardingScenario } from './onboarding.ts';
import { rewardsScenario } from './rewards.ts';
import { stackScenario } from './stack.ts';
import { transfersScenario } from './transfers.ts';

export interface Scenario {
  name: string;
  description: string;
  run(): Promise<void>;
}

/** Every benchmark scenario, in the order `make bench` runs them. */
export const scenarios: Scenario[] = [
  onboardingScenario,
  transfersScenario,
  leaderboardScenario,
  rewardsScenario,
  stackScenario,
];
