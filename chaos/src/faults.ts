import type { SeededRandom } from '@coin/testing';
import type { Cluster } from './cluster.ts';
import type { ChaosOptions, FaultKind, ServerName } from './options.ts';
import type { Servers } from './servers.ts';

interface PlannedFault {
  atMs: number;
  kind: FaultKind;
  /** Which process, as an index into the cluster's replicas (kill and pause). */
  target: number;
  /** How long a process stays paused, or down before it is started again. */
  forMs: number;
}

/** The run's faults, drawn from the seed before anything runs: one every FAULT_EVERY_MS or so. */
export function planFaults(random: SeededRandom, opts: ChaosOptions, processes: number): PlannedFault[] {
  const faults: PlannedFault[] = [];
  let at = opts.faultEveryMs;
  while (at < opts.durationMs - 2000) {
    faults.push({
      atMs: at,
      kind: random.pick(opts.faults),
      target: random.below(processes),
      forMs: 500 + random.below(5500),
    });
    at += Math.floor(opts.faultEveryMs * (0.5 + random.below(1000) / 1000));
  }
  return faults;
}

export interface FaultLog {
  injected: Record<FaultKind, number>;
  /** Faults whose process was not up at that moment (already down or paused). */
  skipped: number;
  lines: string[];
}

/** Injects the planned faults at their times until `stopped()`; server restarts are awaited in turn. */
export async function injectFaults(
  cluster: Cluster,
  servers: Servers,
  faults: PlannedFault[],
  stopped: () => boolean,
  say: (line: string) => void,
): Promise<FaultLog> {
  const log: FaultLog = {
    injected: { kill: 0, pause: 0, 'restart-postgres': 0, 'restart-nats': 0, 'restart-redis': 0 },
    skipped: 0,
    lines: [],
  };
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
    } else {
      const server = f.kind.slice('restart-'.length) as ServerName;
      log.lines.push(`${at} ${f.kind} (down ${f.forMs} ms)`);
      say(`fault ${log.lines.at(-1)}`);
      await servers.restart(server, f.forMs);
    }
    log.injected[f.kind] += 1;
  }
  return log;
}
