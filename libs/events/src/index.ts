export { applyOnce, type ConsumerOptions, type RunningConsumer, startConsumer } from './consumer.ts';
export {
  addToOutbox,
  type OutboxEvent,
  OutboxMigration,
  type OutboxRelay,
  outboxMigration,
  type RelayOptions,
  startOutboxRelay,
} from './outbox.ts';
export { type PollLoop, startPollLoop } from './poll-loop.ts';
export { ensureEventsStream } from './stream.ts';
