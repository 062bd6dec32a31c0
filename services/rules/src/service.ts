import { startService } from '@coin/startup';
import { rulesConfig } from './config.ts';
import type { RulesDeps } from './deps.ts';
import { rulesMigrations } from './migrations/index.ts';
import { createRuleHandler } from './operations/create-rule.ts';
import { listRulesHandler } from './operations/list-rules.ts';
import { rewardUserHandler } from './operations/reward-user.ts';
import { updateRuleHandler } from './operations/update-rule.ts';
import { forgetOldRewardKeys } from './rewards/idempotency-keys.ts';
import { startRewardRetrier } from './rewards/retrier.ts';

const KEY_SWEEP_INTERVAL_MS = 3_600_000;

export async function startRules(env: NodeJS.ProcessEnv = process.env) {
  return startService(rulesConfig(env), {
    description: 'reward rules and rewards by rule',
    outbox: true,
    start({ config, orm, nc, relay, log, background }) {
      const deps: RulesDeps = { orm, nc, relay, config, log };
      background(startRewardRetrier(deps), 'reward retrier');
      const sweepKeys = () =>
        forgetOldRewardKeys(orm.em.fork()).catch((err) => log.warn({ err }, 'idempotency key sweep failed'));
      void sweepKeys();
      const sweeper = setInterval(sweepKeys, KEY_SWEEP_INTERVAL_MS).unref();
      background({ stop: () => clearInterval(sweeper) }, 'idempotency key sweep');
      return [
        createRuleHandler(deps),
        listRulesHandler(deps),
        updateRuleHandler(deps),
        rewardUserHandler(deps),
      ];
    },
    database: { migrations: rulesMigrations },
  });
}
