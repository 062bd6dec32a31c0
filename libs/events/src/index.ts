export { applyOnce, type ConsumerOptions, type RunningConsumer, startConsumer } from './consumer.ts';
export { durableName, eventsNamespace, qualifiedSubject, streamName } from './namespace.ts';
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
export { EVENTS_STREAM, ensureEventsStream } from './stream.ts';
