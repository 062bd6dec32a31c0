import type { Operation } from './operation.ts';

/** The wallet service's operations (HTTP routes and internal NATS subjects). */
export const walletOperations: readonly Operation[] = [];
