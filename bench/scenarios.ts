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

/** Each issue's benchmark adds its scenario here. */
export const scenarios: Scenario[] = [
  onboardingScenario,
  transfersScenario,
  leaderboardScenario,
  rewardsScenario,
  stackScenario,
];
