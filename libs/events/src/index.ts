export { applyOnce, type ConsumerOptions, type RunningConsumer, startConsumer } from './consumer.ts';
export {
  addToOutbox,
  type OutboxBacklog,
  type OutboxEvent,
  type OutboxRelay,
  type RelayOptions,
  startOutboxRelay,
} from './outbox.ts';
export { OutboxMigration, outboxMigrations, outboxQueue } from './outbox-migration.ts';
export { ensureEventsStream } from './stream.ts';
