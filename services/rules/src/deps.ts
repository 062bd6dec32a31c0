import type { NatsConnection } from '@coin/bus';
import type { Database } from '@coin/db';
import type { OutboxRelay } from '@coin/events';
import type { Logger } from '@coin/telemetry';
import type { RulesConfig } from './config.ts';

export interface RulesDeps {
  db: Database;
  nc: NatsConnection;
  relay: OutboxRelay;
  config: RulesConfig;
  log: Logger;
}
