import { startService } from '@coin/startup';
import { rulesConfig } from './config.ts';
import type { RulesDeps } from './deps.ts';
import { startRewardKeyPurge } from './domain/rewards/idempotency-keys.ts';
import { limitedRewardQueue, rewardQueue, startRewardRetrier } from './domain/rewards/retrier.ts';
import { rulesMigrations } from './migrations/index.ts';
import { createRuleHandler } from './operations/create-rule.ts';
import { listRulesHandler } from './operations/list-rules.ts';
import { rewardUserHandler } from './operations/reward-user.ts';
import { getRuleSettingsHandler, setRuleSettingsHandler } from './operations/rule-settings.ts';
import { updateRuleHandler } from './operations/update-rule.ts';

export async function startRules(env: NodeJS.ProcessEnv = process.env) {
  return startService(rulesConfig(env), {
    description: 'reward rules and rewards by rule',
    outbox: true,
    start({ config, db, nc, relay, log, background }) {
      const deps: RulesDeps = { db, nc, relay, config, log };
      background(startRewardRetrier(deps, rewardQueue), 'reward retrier');
      background(startRewardRetrier(deps, limitedRewardQueue), 'limited reward retrier');
      background(startRewardKeyPurge({ db, log }), 'idempotency key purge');
      return [
        createRuleHandler(deps),
        listRulesHandler(deps),
        updateRuleHandler(deps),
        rewardUserHandler(deps),
        getRuleSettingsHandler(deps),
        setRuleSettingsHandler(deps),
      ];
    },
    database: { migrations: rulesMigrations },
  });
}
