/**
 * A process without a database or operations of its own (the gateway): the index also exports
 * `startService`, whose imports load MikroORM, kysely and pg at start, heap a process without a
 * database would hold for nothing (docs/decisions/2026-11-23-modules-loaded-on-first-use.md).
 */
export type { ProcessContext } from './process-context.ts';
export { runMain } from './run-main.ts';
export { startProcess } from './start-process.ts';
