export { claimJobs } from './claim.ts';
export { backlogGauges } from './metrics.ts';
export { runParkedCommand } from './operator.ts';
export { type QueueReading, readQueue, replayParked } from './parked.ts';
export { type PollLoop, startPollLoop } from './poll-loop.ts';
export { startPurge } from './purge.ts';
export type { Job, JobQueue, JobResult } from './queue.ts';
export { type JobWorker, type JobWorkerOptions, startJobWorker } from './worker.ts';
