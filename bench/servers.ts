/**
 * CPU of the servers under the stack (Postgres, NATS, Redis), read from /proc like the stack's own
 * processes: on this machine they share its two cores with every service, so a transfer's cost is
 * theirs too. Postgres's connections are grouped by the database they serve (a stack database names
 * its service, `coin_t_<service>_<suffix>`); its other processes, and connections that ended (their
 * CPU is in the postmaster's time of waited-for children), are one group.
 */
import { readdirSync, readFileSync } from 'node:fs';

const SERVERS = new Set(['postgres', 'nats-server', 'redis-server']);
const STACK_DATABASE = /\bcoin_t_([a-z]+)_[0-9a-f]{8}\b/;

export interface ProcStat {
  command: string;
  parent: number;
  /** utime + stime, in 1/100 s. */
  ticks: number;
  /** cutime + cstime: children that ended and were waited for. */
  endedChildTicks: number;
}

/** One process's /proc/<pid>/stat (`self` for this one); undefined once it has ended. */
export function procStat(pid: string): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const command = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    const f = text.slice(text.lastIndexOf(') ') + 2).split(' ');
    return {
      command,
      parent: Number(f[1]),
      ticks: Number(f[11]) + Number(f[12]),
      endedChildTicks: Number(f[13]) + Number(f[14]),
    };
  } catch {
    return undefined;
  }
}

function groupOf(pid: string, stat: ProcStat): string {
  if (stat.command !== 'postgres') return stat.command;
  let title = '';
  try {
    title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // Ended meanwhile: its CPU is counted with the postmaster's children.
  }
  const service = STACK_DATABASE.exec(title)?.[1];
  if (service) return `postgres: ${service}`;
  return 'postgres: other';
}

/**
 * CPU ticks used so far by each server process, keyed `<group>#<pid>`: a window subtracts per process,
 * so a connection that ends inside it (its ticks move to the postmaster's) takes nothing away.
 */
export function serverTicks(): Record<string, number> {
  const byPid = new Map<string, ProcStat>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = procStat(pid);
    if (stat && SERVERS.has(stat.command)) byPid.set(pid, stat);
  }
  const ticks: Record<string, number> = {};
  for (const [pid, stat] of byPid) {
    const postmaster = stat.command === 'postgres' && !byPid.has(String(stat.parent));
    ticks[`${groupOf(pid, stat)}#${pid}`] = stat.ticks + (postmaster ? stat.endedChildTicks : 0);
  }
  return ticks;
}

/** `serverTicks` keys back to their group. */
export const serverGroup = (key: string) => key.replace(/#\d+$/, '');
