export { type BackoffOptions, backoffDelay } from './backoff.ts';
export { claimJobs } from './claim.ts';
export { backlogGauges } from './metrics.ts';
export {
  beforeWriteTrigger,
  dueJobsIndex,
  mirroredColumn,
  parkedJobsIndexMigration,
} from './migration-sql.ts';
export { runParkedCommand } from './operator.ts';
export { type QueueReading, readQueue, replayParked } from './parked.ts';
export { startPollLoop } from './poll-loop.ts';
export type { Job, JobQueue, JobResult } from './queue.ts';
export { type JobWorker, type JobWorkerOptions, startJobWorker } from './worker.ts';
