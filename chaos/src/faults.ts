import type { SeededRandom } from '@coin/testing';
import type { Cluster } from './cluster.ts';
import { injectHaFault, type PlannedHaFault, planHaFault } from './ha/ha-faults.ts';
import {
  type ChaosOptions,
  type FaultKind,
  HA_FAULTS,
  type HaFaultKind,
  type ServerName,
} from './options.ts';
import type { Servers } from './servers.ts';

export interface PlannedFault {
  atMs: number;
  kind: FaultKind;
  /** Which process, as an index into the cluster's replicas (kill and pause). */
  target: number;
  /** How long a process stays paused, or down before it is started again. */
  forMs: number;
  /** The HA faults' own draws (which node, how long the standby is held behind, the second fault). */
  ha?: PlannedHaFault;
}

/** The run's faults, drawn from the seed before anything runs: one every FAULT_EVERY_MS or so. */
export function planFaults(random: SeededRandom, opts: ChaosOptions, processes: number): PlannedFault[] {
  const faults: PlannedFault[] = [];
  let at = opts.faultEveryMs;
  while (at < opts.durationMs - 2000) {
    const fault: PlannedFault = {
      atMs: at,
      kind: random.pick(opts.faults),
      target: random.below(processes),
      forMs: 500 + random.below(5500),
    };
    // Drawn only in the HA topology, so a single-topology seed replays the faults it always did.
    if (opts.topology === 'ha') fault.ha = planHaFault(random);
    faults.push(fault);
    at += Math.floor(opts.faultEveryMs * (0.5 + random.below(1000) / 1000));
  }
  return faults;
}

/** A server-level fault as it happened: when (epoch ms; a failover's is its kill) and what. */
export interface FaultEvent {
  kind: FaultKind;
  at: number;
  label: string;
}

export interface FaultLog {
  injected: Record<FaultKind, number>;
  /** Faults whose process was not up at that moment (already down or paused), or whose server was busy. */
  skipped: number;
  lines: string[];
  /** Server-level faults with their times, for the RTO. */
  events: FaultEvent[];
  /** Faults that could not be carried out to the end (a standby that would not re-join). */
  errors: string[];
}

export function emptyFaultLog(): FaultLog {
  const injected = Object.fromEntries(
    (['kill', 'pause', 'restart-postgres', 'restart-nats', 'restart-redis', ...HA_FAULTS] as FaultKind[]).map(
      (k) => [k, 0],
    ),
  ) as Record<FaultKind, number>;
  return { injected, skipped: 0, lines: [], events: [], errors: [] };
}

/**
 * Injects the planned faults at their times until `stopped()`. Server restarts are awaited in turn;
 * the HA faults run on while the next ones are injected (so they overlap), one at a time per server
 * kind, and are all awaited before this returns.
 */
export async function injectFaults(
  cluster: Cluster,
  servers: Servers,
  faults: PlannedFault[],
  stopped: () => boolean,
  say: (line: string) => void,
): Promise<FaultLog> {
  const log = emptyFaultLog();
  const running = new Set<Promise<void>>();
  const began = Date.now();
  for (const f of faults) {
    while (Date.now() - began < f.atMs && !stopped()) await new Promise((r) => setTimeout(r, 50));
    if (stopped()) break;
    const at = `${((Date.now() - began) / 1000).toFixed(1)}s`;
    if (f.kind === 'kill' || f.kind === 'pause') {
      const r = cluster.replicas[f.target];
      if (r.state !== 'up') {
        log.skipped += 1;
        continue;
      }
      if (f.kind === 'kill') cluster.kill(r, f.forMs);
      else cluster.pause(r, f.forMs);
      log.lines.push(`${at} ${f.kind} ${r.id} (${f.forMs} ms)`);
      say(`fault ${log.lines.at(-1)}`);
    } else if (HA_FAULTS.includes(f.kind as HaFaultKind)) {
      const started = injectHaFault(servers.ha!, cluster.env, f.kind as HaFaultKind, f, log, at, say);
      if (!started) {
        log.skipped += 1;
        continue;
      }
      const p = started.finally(() => running.delete(p));
      running.add(p);
    } else {
      const server = f.kind.slice('restart-'.length) as ServerName;
      log.lines.push(`${at} ${f.kind} (down ${f.forMs} ms)`);
      log.events.push({ kind: f.kind, at: Date.now(), label: log.lines.at(-1)! });
      say(`fault ${log.lines.at(-1)}`);
      await servers.restart(server, f.forMs);
    }
    log.injected[f.kind] += 1;
  }
  await Promise.all(running);
  return log;
}
