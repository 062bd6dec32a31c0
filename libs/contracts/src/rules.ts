import type { Operation } from './operation.ts';

/** The rules service's operations (HTTP routes and internal NATS subjects). */
export const rulesOperations: readonly Operation[] = [];
