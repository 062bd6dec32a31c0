// The outbox tests: an isolated database with the outbox and applied-events tables, and a relay to NATS.
import { randomBytes } from 'node:crypto';
import { connectBus, type NatsConnection, namesOf } from '@coin/bus';
import { type Database, openDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll } from 'vitest';
import {
  appliedEventsMigrations,
  type OutboxRelay,
  outboxMigrations,
  setUpBus,
  startOutboxRelay,
} from '../src/index.ts';

export const log = createLogger('events-test', 'silent');
export const namespace = `t${randomBytes(5).toString('hex')}`;
const dbs = isolatedDatabases(['eventstest']);
export let db: Database;
export let nc: NatsConnection;
export let relay: OutboxRelay;

export async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Registers the set-up and tear-down of the calling test file. */
export function useOutboxRelay(): void {
  beforeAll(async () => {
    db = await openDatabase({
      url: dbs.env.EVENTSTEST_DATABASE_URL,
      migrationUrl: dbs.env.EVENTSTEST_MIGRATION_DATABASE_URL,
      migrations: [...outboxMigrations, ...appliedEventsMigrations],
      log,
    });
    await db.em.fork().execute('CREATE TABLE totals (user_id text PRIMARY KEY, amount int NOT NULL)');
    nc = await connectBus(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'events-test', namespace);
    // The operator's set-up, before any process of the namespace starts: the relay only publishes.
    await setUpBus(nc, []);
    relay = startOutboxRelay({ db, nc, log, intervalMs: 20 });
  });

  afterAll(async () => {
    await relay?.stop();
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(namesOf(nc).stream).catch(() => undefined);
    await nc?.close();
    await db?.close();
    await dbs.drop();
  });
}

/** Stops the relay and starts another with these options (the test database and bus are its own). */
export async function restartRelay(
  options: Omit<Parameters<typeof startOutboxRelay>[0], 'db' | 'nc' | 'log'>,
): Promise<void> {
  await relay.stop();
  relay = startOutboxRelay({ db, nc, log, ...options });
}
