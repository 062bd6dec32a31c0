import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connectBus, type NatsConnection } from '@coin/bus';
import {
  type BaseConfig,
  type DatabaseConfig,
  natsTls,
  productionProtections,
  redisOptions,
} from '@coin/config';
import type { Database, NamedMigration } from '@coin/db';
import { createLogger, type Logger } from '@coin/telemetry';
import type { Redis } from 'ioredis';
import { StopList, type Stoppable } from './stop-list.ts';

const require = createRequire(import.meta.url);

export interface DatabaseSchema {
  migrations: readonly NamedMigration[];
}

/**
 * What every process kind starts with: its configuration (parsed once, before this), a logger,
 * and helpers that open a resource and register it to be stopped, last opened first.
 */
export interface ProcessContext<C extends BaseConfig> {
  name: string;
  config: C;
  log: Logger;
  /** The NATS connection in the configuration's namespace, drained at stop. */
  bus(): Promise<NatsConnection>;
  /** The service's database as its own role, migrated and checked, with bounded waits; closed at stop. */
  database: C extends DatabaseConfig ? (schema: DatabaseSchema) => Promise<Database> : never;
  /** Redis with a timeout on every command; disconnected at stop. */
  redis(): Redis;
  /**
   * Registers something that runs beside the handlers and must be stopped: a worker, a consumer, a
   * relay, a timer, a client to close. The process stops them after it stops taking requests, the
   * last registered first.
   */
  background<T extends Stoppable>(thing: T, name?: string): T;
}

export function processContext<C extends BaseConfig>(name: string, config: C) {
  const log = createLogger(name, config.LOG_LEVEL);
  const list = new StopList(log);
  const ctx: ProcessContext<C> = {
    name,
    config,
    log,
    async bus() {
      productionProtections.bus(config);
      if (!config.NATS_NKEY_SEED)
        log.warn(
          'NATS_NKEY_SEED is not set: connecting to NATS without credentials. Only a server without authorization accepts this, and on it any process can call any operation; set a seed per service in production (docs/operating/security.md, "NATS credentials")',
        );
      const nc = await connectBus(
        config.NATS_URL,
        name,
        config.NATS_NAMESPACE,
        config.NATS_NKEY_SEED,
        natsTls(config),
      );
      list.add('bus', { stop: () => nc.drain().catch(() => undefined) });
      return nc;
    },
    database: (async (schema: DatabaseSchema) => {
      const settings = config as unknown as DatabaseConfig;
      productionProtections.database(config, settings);
      // Loaded here, not at the top: MikroORM, kysely and pg are heap a process without a database
      // (the gateway) would hold for nothing
      // (docs/decisions/2026-11-23-modules-loaded-on-first-use.md).
      const { openDatabase } = await import('@coin/db');
      const db = await openDatabase({
        service: settings.service,
        url: settings.databaseUrl,
        migrationUrl: settings.migrationUrl,
        production: settings.APP_MODE === 'production',
        migrations: schema.migrations,
        log,
        poolMax: settings.DB_POOL_MAX,
        statementTimeoutMs: settings.DB_STATEMENT_TIMEOUT_MS,
        acquireTimeoutMs: settings.DB_ACQUIRE_TIMEOUT_MS,
        idleInTransactionTimeoutMs: settings.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      });
      list.add('database', { stop: () => db.close() });
      return db;
    }) as ProcessContext<C>['database'],
    redis() {
      // Required here, not imported at the top: only the gateway and leaderboard use Redis, and every
      // other service would hold ioredis for nothing. (Synchronous: `redis()` is.)
      productionProtections.redis(config);
      const { Redis } = require('ioredis') as typeof import('ioredis');
      // RESP2: script replies keep the shapes the scripts return, whatever the client's default.
      const redis = new Redis(config.REDIS_URL, {
        ...redisOptions(config, readFileSync),
        protocol: 2,
        maxRetriesPerRequest: 2,
        enableAutoPipelining: true,
        commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
      });
      // Without a listener ioredis writes every failed reconnect to stderr, outside the log; it
      // reconnects by itself, so an outage is logged once when it starts and once when it ends.
      let unreachable = false;
      redis.on('error', (err) => {
        if (!unreachable) log.warn({ err }, 'redis unreachable, reconnecting');
        unreachable = true;
      });
      redis.on('ready', () => {
        if (unreachable) log.info('redis reachable again');
        unreachable = false;
      });
      list.add('redis', { stop: () => redis.disconnect() });
      return redis;
    },
    background(thing, stepName = 'background') {
      return list.add(stepName, thing);
    },
  };
  return { ctx, stops: list };
}
