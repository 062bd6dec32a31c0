/**
 * A process without a database or operations of its own (the gateway): the index also exports
 * `startService`, whose imports load MikroORM, kysely and pg (about 10 MB of heap) at start.
 */
export type { ProcessContext } from './process-context.ts';
export { runMain } from './run-main.ts';
export { startProcess } from './start-process.ts';
