export { startAppliedEventsRetention } from './applied-events-retention.ts';
export { applyOnce, applyOnceEach, keepAppliedId } from './apply-once.ts';
export { type AuditedChange, auditEvent } from './audit.ts';
export { type ConsumerOptions, type RunningConsumer, startConsumer } from './consumer.ts';
export { appliedEventsMigrations, outboxMigrations, outboxQueue } from './migrations.ts';
export {
  addToOutbox,
  type OutboxRelay,
  startOutboxRelay,
} from './outbox.ts';
export { startOutboxRetention } from './outbox-retention.ts';
export { listParked, type ParkedEvent, parkedNames, parkedStreamName, replayParked } from './parked.ts';
export type { EventMeta } from './parse-event.ts';
export { createDurable, setUpBus } from './set-up.ts';
export { ensureEventsStream, requireEventsStream } from './stream.ts';
