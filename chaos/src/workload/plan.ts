import type { SeededRandom } from '@coin/testing';
import { LOTS_AND_HOLDS_WEIGHTS, type LotsAndHoldsKind, planLotsAndHolds } from './lots-and-holds.ts';
import type { CallSpec } from './retrying-call.ts';
import type { SeededUuids } from './seeded-uuids.ts';
import type { PartnerWorld } from './world.ts';

export type OpKind =
  | 'transfer-to-user'
  | 'transfer-from-user'
  | 'replay-transfer'
  | 'reward'
  | 'onboard'
  | 'upgrade-tier'
  | 'read'
  | LotsAndHoldsKind;

export interface PlannedOp {
  kind: OpKind;
  partner: number;
  /** The gateway of the first attempt. */
  gateway: number;
  /** null for a replay: the client re-sends one of its own acknowledged transfers. */
  spec: CallSpec | null;
  /** For onboard: the users the harness knew were stored before it sent the request. */
  alreadyStored?: string[];
  /** For resolve-pending: post (all, or `coins` of it) or void one of the client's acknowledged holds. */
  resolve?: { action: 'post' | 'void'; coins?: number; idempotencyKey: string };
}

const WEIGHTS: [OpKind, number][] = [
  ['transfer-to-user', 30],
  ['transfer-from-user', 18],
  ['replay-transfer', 4],
  ['reward', 16],
  ['onboard', 5],
  ['upgrade-tier', 7],
  ['read', 20],
  ...LOTS_AND_HOLDS_WEIGHTS,
];

function weighted(random: SeededRandom): OpKind {
  let n = random.below(WEIGHTS.reduce((s, [, w]) => s + w, 0));
  for (const [kind, w] of WEIGHTS) {
    if (n < w) return kind;
    n -= w;
  }
  return 'read';
}

function coins(random: SeededRandom, maxWhole: number): number {
  return (1 + random.below(maxWhole * 100)) / 100;
}

/** The next operation of a client, drawn from the run's random source alone (a seed replays it). */
export function planOp(random: SeededRandom, uuid: SeededUuids, world: PartnerWorld[]): PlannedOp {
  const partner = random.below(world.length);
  const w = world[partner];
  const kind = weighted(random);
  const gateway = random.below(2);
  const userId = random.pick(w.users);
  const token = w.token;
  switch (kind) {
    case 'transfer-to-user':
    case 'transfer-from-user': {
      const body = { userId, coins: coins(random, kind === 'transfer-to-user' ? 40 : 25) };
      const path = `/api/v1/laas/coins/${kind}-wallet`;
      return { kind, partner, gateway, spec: { method: 'POST', path, token, body, idempotencyKey: uuid() } };
    }
    case 'replay-transfer':
      return { kind, partner, gateway, spec: null };
    case 'reward': {
      const body = { userId, ruleName: random.pick(w.rules).name };
      const spec: CallSpec = { method: 'POST', path: '/api/v1/laas/rules/reward', token, body };
      return { kind, partner, gateway, spec: { ...spec, idempotencyKey: uuid() } };
    }
    case 'onboard': {
      const fresh = Array.from({ length: 1 + random.below(4) }, () => uuid());
      const users = [...fresh];
      if (random.below(2) === 0) users.push(random.pick(fresh));
      const alreadyStored = random.below(2) === 0 ? [userId] : [];
      users.push(...alreadyStored);
      const body = { users: users.map((id) => ({ userId: id, userData: { chaos: true } })) };
      const spec: CallSpec = { method: 'POST', path: '/api/v1/laas/onboard-users', token, body };
      return { kind, partner, gateway, spec, alreadyStored };
    }
    case 'upgrade-tier': {
      const body = { userId, tierId: random.pick(w.tiers) };
      return {
        kind,
        partner,
        gateway,
        spec: { method: 'POST', path: '/api/v1/laas/user/upgrade-tier', token, body },
      };
    }
    case 'read':
      return { kind, partner, gateway, spec: readSpec(random, w, userId) };
    default:
      return { ...planLotsAndHolds(kind, random, uuid, w, userId), partner, gateway };
  }
}

function readSpec(random: SeededRandom, w: PartnerWorld, userId: string): CallSpec {
  const token = w.token;
  switch (random.below(4)) {
    case 0:
      return { method: 'GET', path: '/api/v1/laas/coins/balance', token, query: { userId } };
    case 1:
      return { method: 'GET', path: '/api/v1/laas/coins/get-user-transactions', token, query: { userId } };
    case 2: {
      const now = new Date();
      const query = { type: 'earner', year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
      return { method: 'GET', path: '/api/v1/coins/partner/ep-leaderboard', token, query };
    }
    default:
      return { method: 'GET', path: '/api/v1/laas/leaderboard/new', token, query: { userId } };
  }
}
