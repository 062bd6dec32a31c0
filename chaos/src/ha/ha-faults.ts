import { busNames } from '@coin/bus';
import type { SeededRandom } from '@coin/testing';
import type { FaultLog, PlannedFault } from '../faults.ts';
import type { HaFaultKind } from '../options.ts';
import type { HaServers } from './servers-ha.ts';

type NatsFault = 'kill-nats-node' | 'pause-nats-node' | 'partition-nats-node';
const NATS_FAULTS: NatsFault[] = ['kill-nats-node', 'pause-nats-node', 'partition-nats-node'];

export interface PlannedHaFault {
  /** A NATS fault's node (0-2), or -1: whichever leads the events stream at that moment. */
  node: number;
  /** A failover's replication hold before the kill, so the standby is behind (0: none). */
  holdMs: number;
  /** How long a NATS node stays down, paused or cut off: long enough for a leader election. */
  natsMs: number;
  /** overlap: the NATS fault started at the same moment as a Postgres failover. */
  second: NatsFault;
}

export function planHaFault(random: SeededRandom): PlannedHaFault {
  return {
    node: random.below(2) === 0 ? -1 : random.below(3),
    holdMs: random.below(2) === 0 ? 0 : 1000 + random.below(6000),
    natsMs: 2000 + random.below(8000),
    second: random.pick(NATS_FAULTS),
  };
}

/** One NATS fault at a time: the cluster keeps its quorum (2 of 3) through any single one. */
const natsBusy = new WeakSet<HaServers>();

/**
 * Starts one HA fault and returns the promise of its end, or undefined when the server it needs is
 * already in a fault (a failover not yet re-joined, a NATS node not yet back): skipped, counted.
 */
export function injectHaFault(
  ha: HaServers,
  env: NodeJS.ProcessEnv,
  kind: HaFaultKind,
  f: PlannedFault,
  log: FaultLog,
  at: string,
  say: (line: string) => void,
): Promise<void> | undefined {
  const plan = f.ha!;
  const pgFree = !ha.postgres.inProgress;
  const natsFree = !natsBusy.has(ha) && !ha.nats.degraded;
  const note = (line: string, event?: { kind: HaFaultKind; at: number }) => {
    log.lines.push(`${at} ${line}`);
    say(`fault ${at} ${line}`);
    if (event) log.events.push({ ...event, label: `${at} ${line}` });
  };
  const failed = (what: string) => (err: Error) => {
    log.errors.push(`${at} ${what}: ${err.message}`);
    say(`fault ${at} ${what} FAILED: ${err.message}`);
  };
  switch (kind) {
    case 'failover-postgres':
      if (!pgFree) return undefined;
      return failover(ha, kind, plan.holdMs, note).catch(failed(kind));
    case 'kill-postgres-standby':
      if (!pgFree) return undefined;
      note(`${kind} (down ${f.forMs} ms)`, { kind, at: Date.now() });
      return ha.postgres.killStandby(f.forMs).catch(failed(kind));
    case 'overlap':
      if (!pgFree || !natsFree) return undefined;
      return Promise.all([
        failover(ha, kind, plan.holdMs, note),
        natsFault(ha, env, plan.second, plan, note, kind),
      ])
        .then(() => undefined)
        .catch(failed(kind));
    default:
      if (!natsFree) return undefined;
      return natsFault(ha, env, kind, plan, note, kind).catch(failed(kind));
  }
}

async function failover(
  ha: HaServers,
  kind: HaFaultKind,
  holdMs: number,
  note: (line: string, event?: { kind: HaFaultKind; at: number }) => void,
): Promise<void> {
  const hold = holdMs ? `, standby held ${holdMs} ms before` : '';
  const report = await ha.postgres.failover(holdMs, (killedAt) =>
    note(`${kind === 'overlap' ? 'overlap: ' : ''}failover-postgres (kill -9 of the primary${hold})`, {
      kind,
      at: killedAt,
    }),
  );
  note(
    `  promoted ${report.promotedAt - report.killedAt} ms after the kill, old primary re-joined by ${report.rejoin}` +
      (report.behindBytes === undefined ? '' : `, standby ${report.behindBytes} bytes behind at the kill`),
  );
}

async function natsFault(
  ha: HaServers,
  env: NodeJS.ProcessEnv,
  kind: NatsFault,
  plan: PlannedHaFault,
  note: (line: string, event?: { kind: HaFaultKind; at: number }) => void,
  counted: HaFaultKind,
): Promise<void> {
  natsBusy.add(ha);
  try {
    const stream = busNames(env.NATS_NAMESPACE ?? '').stream;
    const leader = plan.node < 0 ? await ha.nats.leaderOf(stream, env.NATS_NAMESPACE ?? '') : undefined;
    const node = plan.node < 0 ? (leader ?? 0) : plan.node;
    const which = `n${node}${plan.node < 0 ? (leader === undefined ? ' (no leader found)' : ' (the stream leader)') : ''}`;
    // An overlap's writes are timed from its failover's kill.
    const event = counted === 'overlap' ? undefined : { kind: counted, at: Date.now() };
    note(`${counted === 'overlap' ? 'overlap: ' : ''}${kind} ${which} (${plan.natsMs} ms)`, event);
    if (kind === 'kill-nats-node') await ha.nats.kill(node, plan.natsMs, ha.natsServer);
    else if (kind === 'pause-nats-node') await ha.nats.pause(node, plan.natsMs);
    else await ha.nats.partition(node, plan.natsMs);
    const after = await ha.nats.leaderOf(stream, env.NATS_NAMESPACE ?? '');
    note(`  n${node} back; the stream leader is ${after === undefined ? 'not known yet' : `n${after}`}`);
  } finally {
    natsBusy.delete(ha);
  }
}
