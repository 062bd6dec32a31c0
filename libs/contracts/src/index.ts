import './validation.ts';
import { identityOperations } from './identity.ts';
import type { Operation } from './operation.ts';

export * from './auth.ts';
export * from './common.ts';
export * as identity from './identity.ts';
export * from './operation.ts';
export { formatIssue, formatPath } from './validation.ts';

/** Every operation of the system; the gateway's routes and the OpenAPI document come from here. */
export const allOperations: readonly Operation[] = [...identityOperations];
