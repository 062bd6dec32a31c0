import { type BoundHandler, type NatsConnection, serveOperations } from '@coin/bus';
import type { DatabaseConfig } from '@coin/config';
import { type Database, requestScope } from '@coin/db';
import { type OutboxRelay, requireEventsStream, startOutboxRelay, startOutboxRetention } from '@coin/events';
import { startMetricsServer } from '@coin/telemetry';
import type { Redis } from 'ioredis';
import { type DatabaseSchema, type ProcessContext, processContext } from './process-context.ts';
import type { Stoppable } from './stop-list.ts';

export type ServiceContext<C extends DatabaseConfig, O extends boolean, R extends boolean> = Omit<
  ProcessContext<C>,
  'bus' | 'database' | 'redis'
> & { db: Database; nc: NatsConnection } & (O extends true ? { relay: OutboxRelay } : unknown) &
  (R extends true ? { redis: Redis } : unknown);

export interface ServiceSpec<C extends DatabaseConfig, O extends boolean, R extends boolean> {
  description: string;
  database: DatabaseSchema;
  /** The service publishes events: the stream is ensured and its outbox relay runs. */
  outbox?: O;
  /** The service keeps an index in Redis. */
  redis?: R;
  /**
   * Builds the service's dependencies, registers what runs in the background with
   * `ctx.background`, and returns the handlers of its operations.
   */
  start(ctx: ServiceContext<C, O, R>): Promise<readonly BoundHandler[]> | readonly BoundHandler[];
}

export interface RunningService extends Stoppable {
  id: string;
  stop(): Promise<void>;
}

/**
 * A service process, named by its configuration (parsed once, `loadServiceConfig`): health,
 * readiness and metrics on `METRICS_PORT` (when set), its database (created, migrated, bounded
 * waits), the bus in its namespace, Redis and the outbox relay when asked, whatever `start` runs
 * in the background, and its operations on the bus. `stop` stops taking requests and finishes
 * those in flight, then stops the background work, the relay, Redis, the bus and the database, in
 * that order. A failure to start stops what had started.
 */
export async function startService<
  C extends DatabaseConfig,
  O extends boolean = false,
  R extends boolean = false,
>(config: C, spec: ServiceSpec<C, O, R>): Promise<RunningService> {
  const name = config.service;
  const { ctx, stops } = processContext(name, config);
  const { log } = ctx;
  let serving = false;
  try {
    let nc: NatsConnection | undefined;
    if (config.METRICS_PORT !== undefined) {
      const server = await startMetricsServer({
        port: config.METRICS_PORT,
        log,
        // Ready while serving on a usable connection; a reconnect in progress keeps it so.
        ready: () => serving && !!nc && !nc.isClosed() && !nc.isDraining(),
      });
      stops.add('metrics server', server);
    }
    const db = await ctx.database(spec.database);
    nc = await ctx.bus();
    const redis = spec.redis ? ctx.redis() : undefined;
    // Every service publishes or consumes: the operator's set-up made the stream; without it, no start.
    await requireEventsStream(nc);
    let relay: OutboxRelay | undefined;
    if (spec.outbox) {
      relay = stops.add('outbox relay', startOutboxRelay({ db, nc, log }));
      stops.add(
        'outbox retention',
        startOutboxRetention({ db, log, service: name, retentionHours: config.OUTBOX_RETENTION_HOURS }),
      );
    }
    const { bus: _bus, database: _database, redis: _redis, ...shared } = ctx;
    const handlers = await spec.start({ ...shared, db, nc, relay, redis } as ServiceContext<C, O, R>);
    const service = stops.add(
      'operations',
      serveOperations(nc, {
        service: name,
        version: '1.0.0',
        description: spec.description,
        log,
        around: requestScope(db, name),
        handlers,
      }),
    );
    // Once started, the server routes to it: the subscriptions have reached NATS.
    await nc.flush();
    serving = true;
    log.info({ id: service.id }, `${name} started`);
    return {
      id: service.id,
      async stop() {
        serving = false;
        await stops.stopAll();
      },
    };
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
}
