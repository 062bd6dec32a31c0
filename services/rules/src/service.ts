import { connectBus, serveOperations } from '@coin/bus';
import { openDatabase, requestScope } from '@coin/db';
import { ensureEventsStream, startOutboxRelay } from '@coin/events';
import { createLogger, type Stoppable } from '@coin/telemetry';
import { rulesConfig } from './config.ts';
import type { RulesDeps } from './deps.ts';
import { rulesEntities } from './entities.ts';
import { rulesMigrations } from './migrations/index.ts';
import { createRuleHandler } from './operations/create-rule.ts';
import { listRulesHandler } from './operations/list-rules.ts';
import { rewardUserHandler } from './operations/reward-user.ts';
import { updateRuleHandler } from './operations/update-rule.ts';
import { forgetOldRewardKeys } from './rewards/idempotency-keys.ts';
import { startRewardRetrier } from './rewards/retrier.ts';

const KEY_SWEEP_INTERVAL_MS = 3_600_000;

export async function startRules(env: NodeJS.ProcessEnv = process.env): Promise<Stoppable> {
  const config = rulesConfig(env);
  const log = createLogger('rules', config.LOG_LEVEL);
  const orm = await openDatabase({
    url: config.databaseUrl,
    entities: rulesEntities,
    migrations: rulesMigrations,
    log,
  });
  const nc = await connectBus(config.NATS_URL, 'rules');
  await ensureEventsStream(nc);
  const relay = startOutboxRelay({ orm, nc, log });
  const deps: RulesDeps = { orm, nc, relay, config, log };
  const service = serveOperations(nc, {
    service: 'rules',
    version: '1.0.0',
    description: 'reward rules and rewards by rule',
    log,
    around: requestScope(orm),
    metricsPort: config.METRICS_PORT,
    handlers: [
      createRuleHandler(deps),
      listRulesHandler(deps),
      updateRuleHandler(deps),
      rewardUserHandler(deps),
    ],
  });
  const retrier = startRewardRetrier(deps);
  const sweepKeys = () =>
    forgetOldRewardKeys(orm.em.fork()).catch((err) => log.warn({ err }, 'idempotency key sweep failed'));
  void sweepKeys();
  const sweeper = setInterval(sweepKeys, KEY_SWEEP_INTERVAL_MS).unref();
  log.info({ id: service.id }, 'rules started');
  return {
    async stop() {
      clearInterval(sweeper);
      await service.stop();
      await retrier.stop();
      await relay.stop();
      await nc.drain();
      await orm.close();
    },
  };
}
