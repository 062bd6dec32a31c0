import { allOperations } from '@coin/contracts';
import fc from 'fast-check';
import { type Draft, type FuzzWorld, paramText, validDraft } from './draft.ts';
import { mutation } from './mutations.ts';

/**
 * Every operation a partner can reach over HTTP, but those that end the fuzzing partner's own sessions
 * when called as the contract wants: the run must keep its credentials for its final read. Their
 * hostile input is tested beside them (e2e/sign-out-everywhere.test.ts, e2e/session-revocation.test.ts).
 */
const SESSION_ENDING = new Set(['logout', 'signOutEverywhere', 'changePassword']);
const httpOperations = allOperations.filter((op) => op.http && !SESSION_ENDING.has(op.name));

/** A request to any operation: one in five as the contract wants it, the rest damaged one to three ways. */
export function fuzzRequest(world: FuzzWorld): fc.Arbitrary<Draft> {
  const damage = fc.oneof(
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 4, arbitrary: fc.array(mutation(world), { minLength: 1, maxLength: 3 }) },
  );
  // Built once per operation: fast-check builds a string arbitrary's character tables on first use,
  // and rebuilding them for every request took 84 % of the run's CPU in the stack's own thread.
  const drafts = new Map(httpOperations.map((op) => [op, validDraft(op, world)]));
  return fc
    .constantFrom(...httpOperations)
    .chain((op) => fc.tuple(drafts.get(op)!, damage))
    .map(([draft, edits]) => {
      for (const edit of edits) edit(draft);
      // An empty or dot-segment path parameter names another route (`/users/` is the list of users).
      const params = draft.path.match(/:(\w+)/g)?.map((p) => paramText(draft.params[p.slice(1)])) ?? [];
      if (params.some((v) => v === '' || v === '.' || v === '..')) draft.offRoute = true;
      return draft;
    });
}

/**
 * The `index`-th request of the run seeded `seed`: each drawn from a seed of its own, so one request
 * of a long run can be replayed alone (`SEED=… FUZZ_INDEX=…`).
 */
export function requestAt(arbitrary: fc.Arbitrary<Draft>, seed: number, index: number): Draft {
  const own = (Math.imul(index + 1, 0x9e3779b1) ^ seed) | 0;
  return fc.sample(arbitrary, { seed: own, numRuns: 1 })[0];
}
