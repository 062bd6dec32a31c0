import fc from 'fast-check';
import type { FuzzWorld } from './draft.ts';
import {
  bigUserData,
  duplicateQuery,
  edgeNumber,
  extraField,
  injectControl,
  type Mutation,
  manyUsers,
  removeField,
  replaceBody,
  setField,
  uuidCase,
} from './field-mutations.ts';
import { authMutation, contentType, idempotencyHeader, rawEdit, requestId, route } from './wire-mutations.ts';

/** Every kind of damage, weighted toward the field-level edits that reach the services. */
export function mutation(world: FuzzWorld): fc.Arbitrary<Mutation> {
  return fc.oneof(
    { weight: 8, arbitrary: setField },
    { weight: 5, arbitrary: injectControl },
    { weight: 4, arbitrary: edgeNumber },
    { weight: 4, arbitrary: removeField },
    { weight: 3, arbitrary: extraField },
    { weight: 5, arbitrary: uuidCase },
    { weight: 2, arbitrary: replaceBody },
    { weight: 1, arbitrary: manyUsers },
    { weight: 1, arbitrary: bigUserData },
    { weight: 4, arbitrary: rawEdit },
    { weight: 2, arbitrary: contentType },
    { weight: 2, arbitrary: authMutation(world) },
    { weight: 2, arbitrary: idempotencyHeader },
    { weight: 1, arbitrary: requestId },
    { weight: 1, arbitrary: route },
    { weight: 2, arbitrary: duplicateQuery },
  );
}
