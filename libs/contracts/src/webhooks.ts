import type { Operation } from './operation.ts';

/** The webhooks service's operations (HTTP routes and internal NATS subjects). */
export const webhooksOperations: readonly Operation[] = [];
