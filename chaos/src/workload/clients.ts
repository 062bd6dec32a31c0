import type { SeededRandom } from '@coin/testing';
import { resolveSpec } from './lots-and-holds.ts';
import { type OpKind, planOp } from './plan.ts';
import { type CallRecord, retryingCall } from './retrying-call.ts';
import type { SeededUuids } from './seeded-uuids.ts';
import type { PartnerWorld } from './world.ts';

export interface OpRecord extends CallRecord {
  kind: OpKind;
  partner: number;
  client: number;
  alreadyStored?: string[];
  /** For a replay: the first answer of the transfer it re-sent. */
  replayOf?: OpRecord;
}

export interface Workload {
  records: OpRecord[];
  /** Resolves when every client has its last request answered (or given up). */
  done: Promise<void>;
}

/**
 * `clients` concurrent clients, each issuing operations one after another until `until`, then
 * waiting for its last one's definitive answer. The operations are all drawn up front, in client
 * order, so a seed replays the same requests whatever the timing.
 */
export function runClients(opts: {
  random: SeededRandom;
  uuid: SeededUuids;
  world: PartnerWorld[];
  clients: number;
  gateways: () => readonly string[];
  until: number;
  giveUp: () => boolean;
  opsPerClient?: number;
}): Workload {
  const records: OpRecord[] = [];
  const plans = Array.from({ length: opts.clients }, () =>
    Array.from({ length: opts.opsPerClient ?? 4000 }, () => planOp(opts.random, opts.uuid, opts.world)),
  );
  const client = async (c: number) => {
    const mine: OpRecord[] = [];
    for (const op of plans[c]) {
      if (Date.now() >= opts.until) return;
      const acked = mine.filter((r) => r.kind.startsWith('transfer') && r.final?.status === 200);
      const replayOf =
        op.spec === null && !op.resolve ? acked[op.gateway % Math.max(acked.length, 1)] : undefined;
      const spec = op.resolve ? resolveSpec(op, mine) : (op.spec ?? replayOf?.spec);
      if (!spec) continue;
      const call = await retryingCall(opts.gateways, op.gateway, spec, opts.giveUp);
      const record: OpRecord = { ...call, kind: op.kind, partner: op.partner, client: c, replayOf };
      if (op.alreadyStored) record.alreadyStored = op.alreadyStored;
      mine.push(record);
      records.push(record);
    }
  };
  const done = Promise.all(plans.map((_, c) => client(c))).then(() => undefined);
  return { records, done };
}
