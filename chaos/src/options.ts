import { randomInt } from 'node:crypto';

export type ServerName = 'postgres' | 'nats' | 'redis';

export type FaultKind =
  | 'kill'
  | 'pause'
  | 'restart-postgres'
  | 'restart-nats'
  | 'restart-redis'
  | HaFaultKind;

/** Faults of the HA topology (TOPOLOGY=ha): failovers, node losses and partitions, and two at once. */
export type HaFaultKind =
  | 'failover-postgres'
  | 'kill-postgres-standby'
  | 'kill-nats-node'
  | 'pause-nats-node'
  | 'partition-nats-node'
  | 'overlap';

export const HA_FAULTS: HaFaultKind[] = [
  'failover-postgres',
  'kill-postgres-standby',
  'kill-nats-node',
  'pause-nats-node',
  'partition-nats-node',
  'overlap',
];

/** How one local server is restarted: its pid found by a command, stopped by a signal, started again. */
export interface ServerCommands {
  pid: string;
  signal: NodeJS.Signals;
  start: string;
}

export interface ChaosOptions {
  runs: number;
  /** The first run's seed; run i uses seed + i. */
  seed: number;
  durationMs: number;
  faults: FaultKind[];
  /**
   * `single`: one Postgres, one NATS, one Redis. `ha`: Postgres as a primary and a standby behind a
   * read-write endpoint, NATS as a 3-node JetStream cluster with every stream at 3 replicas.
   */
  topology: 'single' | 'ha';
  /** HA only: synchronous replication (the default) or asynchronous (CHAOS_PG_SYNC=off). */
  pgSync: boolean;
  /** HA only: how long the operator takes to notice a dead primary before it promotes the standby. */
  failoverDetectMs: number;
  /** Mean gap between two faults. */
  faultEveryMs: number;
  partners: number;
  clients: number;
  quietTimeoutMs: number;
  /** How long one process may take to start (CHAOS_START_TIMEOUT seconds). */
  startTimeoutMs: number;
  /** Test-only: corrupts the books before the final read, to show the checker catches it. */
  sabotage?: 'skip-partner-posting';
  /** `private`: Postgres, NATS and Redis of the run's own (the default); `machine`: the machine's. */
  servers: 'private' | 'machine';
  postgresBin?: string;
  natsServer: string;
  redisServer: string;
  /** How the machine's servers are restarted (CHAOS_SERVERS=machine). */
  machine: Record<ServerName, ServerCommands>;
  logLevel: string;
}

const MACHINE_DEFAULTS: ChaosOptions['machine'] = {
  postgres: {
    pid: 'head -1 /var/lib/postgresql/*/main/postmaster.pid',
    signal: 'SIGINT',
    start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  },
  nats: {
    pid: "ss -Hltnp 'sport = :4222' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2",
    signal: 'SIGKILL',
    start:
      'start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log',
  },
  redis: {
    pid: "ss -Hltnp 'sport = :6379' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2",
    signal: 'SIGKILL',
    start:
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
  },
};

const ALL_FAULTS: FaultKind[] = [
  'kill',
  'pause',
  'restart-postgres',
  'restart-nats',
  'restart-redis',
  ...HA_FAULTS,
];

/** The default faults of each topology; `restart` and `ha` name groups of them. */
const DEFAULT_FAULTS = {
  single: 'kill,pause,restart',
  ha: 'kill,pause,ha,restart-redis',
  machine: 'kill,pause',
};

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}`);
  return value;
}

/**
 * `make chaos` settings. Server restarts are among the default faults on the run's private servers; on
 * the machine's (CHAOS_SERVERS=machine) they stop the one Postgres, NATS or Redis everybody uses, so
 * there they run only when FAULTS names them (`restart` for all three).
 */
export function chaosOptions(env: NodeJS.ProcessEnv = process.env): ChaosOptions {
  const servers = env.CHAOS_SERVERS || 'private';
  if (servers !== 'private' && servers !== 'machine')
    throw new Error('CHAOS_SERVERS must be private or machine');
  const topology = env.TOPOLOGY || 'single';
  if (topology !== 'single' && topology !== 'ha') throw new Error('TOPOLOGY must be single or ha');
  if (topology === 'ha' && servers !== 'private')
    throw new Error('TOPOLOGY=ha runs on private servers only (CHAOS_SERVERS=private)');
  const faults = (env.FAULTS || DEFAULT_FAULTS[servers === 'machine' ? 'machine' : topology])
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .flatMap((f) =>
      f === 'restart'
        ? ALL_FAULTS.filter(
            (k) => k.startsWith('restart-') && (topology === 'single' || k === 'restart-redis'),
          )
        : f === 'ha'
          ? HA_FAULTS
          : [f],
    );
  for (const f of faults) {
    if (!ALL_FAULTS.includes(f as FaultKind)) throw new Error(`FAULTS: unknown fault ${f}`);
    if (topology === 'single' && HA_FAULTS.includes(f as HaFaultKind))
      throw new Error(`FAULTS: ${f} needs TOPOLOGY=ha`);
    if (topology === 'ha' && (f === 'restart-postgres' || f === 'restart-nats'))
      throw new Error(`FAULTS: ${f} is for TOPOLOGY=single (ha has failover-postgres and *-nats-node)`);
  }
  const pgSync = (env.CHAOS_PG_SYNC || 'on') !== 'off';
  if (!['on', 'off', ''].includes(env.CHAOS_PG_SYNC ?? ''))
    throw new Error('CHAOS_PG_SYNC must be on or off');
  const sabotage = env.CHAOS_SABOTAGE || undefined;
  if (sabotage !== undefined && sabotage !== 'skip-partner-posting')
    throw new Error('CHAOS_SABOTAGE must be skip-partner-posting');
  const machine = structuredClone(MACHINE_DEFAULTS);
  for (const name of ['postgres', 'nats', 'redis'] as const) {
    const upper = name.toUpperCase();
    machine[name] = {
      pid: env[`CHAOS_${upper}_PID_CMD`] ?? machine[name].pid,
      signal: (env[`CHAOS_${upper}_STOP_SIGNAL`] as NodeJS.Signals) ?? machine[name].signal,
      start: env[`CHAOS_${upper}_START_CMD`] ?? machine[name].start,
    };
  }
  return {
    runs: whole(env, 'RUNS', 1),
    seed: env.SEED ? whole(env, 'SEED', 0, 0) : randomInt(2 ** 31),
    durationMs: whole(env, 'DURATION', 60) * 1000,
    faults: [...new Set(faults as FaultKind[])],
    faultEveryMs: whole(env, 'FAULT_EVERY_MS', 3000, 100),
    topology,
    pgSync,
    failoverDetectMs: whole(env, 'CHAOS_FAILOVER_DETECT_MS', 1000, 0),
    partners: whole(env, 'PARTNERS', 3),
    clients: whole(env, 'CLIENTS', 8),
    quietTimeoutMs: whole(env, 'QUIET_TIMEOUT', 150) * 1000,
    startTimeoutMs: whole(env, 'CHAOS_START_TIMEOUT', 180) * 1000,
    sabotage,
    servers,
    postgresBin: env.CHAOS_PG_BIN || undefined,
    natsServer: env.CHAOS_NATS_SERVER || '/usr/sbin/nats-server',
    redisServer: env.CHAOS_REDIS_SERVER || 'redis-server',
    machine,
    logLevel: env.CHAOS_LOG_LEVEL ?? 'fatal',
  };
}
