import type { SeededRandom } from '@coin/testing';
import type { OpRecord } from './clients.ts';
import type { PlannedOp } from './plan.ts';
import type { CallSpec } from './retrying-call.ts';
import type { SeededUuids } from './seeded-uuids.ts';
import type { PartnerWorld } from './world.ts';

/**
 * The workload's pending transfers and expiring credits: credits whose lots expire during the run
 * (while the same users spend), holds that expire (voided or posted by their expiry) or that the
 * client posts (in full or in part) or voids, sometimes racing the expiry.
 */
export type LotsAndHoldsKind = 'transfer-expiring' | 'hold-pending' | 'resolve-pending';

export const LOTS_AND_HOLDS_WEIGHTS: [LotsAndHoldsKind, number][] = [
  ['transfer-expiring', 8],
  ['hold-pending', 6],
  ['resolve-pending', 5],
];

const TO_USER = '/api/v1/laas/coins/transfer-to-user-wallet';

const coins = (random: SeededRandom, maxWhole: number) => (1 + random.below(maxWhole * 100)) / 100;

export function planLotsAndHolds(
  kind: LotsAndHoldsKind,
  random: SeededRandom,
  uuid: SeededUuids,
  w: PartnerWorld,
  userId: string,
): Omit<PlannedOp, 'partner' | 'gateway'> {
  const token = w.token;
  switch (kind) {
    case 'transfer-expiring': {
      // Seconds from the credit (a retry replays whenever it comes): most lots expire during the run.
      const validity = { expiresInSeconds: 2 + random.below(40) };
      const body = { userId, coins: coins(random, 30), validity };
      return { kind, spec: { method: 'POST', path: TO_USER, token, body, idempotencyKey: uuid() } };
    }
    case 'hold-pending': {
      const pending = { expiresInSeconds: 2 + random.below(30), onExpiry: random.below(2) ? 'post' : 'void' };
      const body = { userId, coins: coins(random, 20), pending };
      return { kind, spec: { method: 'POST', path: TO_USER, token, body, idempotencyKey: uuid() } };
    }
    case 'resolve-pending': {
      const action = random.below(2) ? 'post' : 'void';
      // A part of the hold when it is at least this much (and always as cents).
      const part = action === 'post' && random.below(3) === 0 ? coins(random, 5) : undefined;
      return { kind, spec: null, resolve: { action, coins: part, idempotencyKey: uuid() } };
    }
  }
}

/** The post or void of one of the client's acknowledged holds (the newest first), or null if none. */
export function resolveSpec(op: PlannedOp, mine: OpRecord[]): CallSpec | undefined {
  const holds = mine.filter((r) => r.kind === 'hold-pending' && r.final?.status === 200);
  const hold = holds[holds.length - 1 - (op.gateway % Math.max(holds.length, 1))];
  if (!hold || !op.resolve) return undefined;
  const held = hold.final!.body.data.pendingTransfer as { id: string; coins: number };
  const { action, coins, idempotencyKey } = op.resolve;
  const body = action === 'post' && coins !== undefined && coins < held.coins ? { coins } : {};
  const path = `/api/v1/laas/coins/pending-transfers/${held.id}/${action}`;
  return { method: 'POST', path, token: hold.spec.token, body, idempotencyKey };
}
