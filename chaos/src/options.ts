import { randomInt } from 'node:crypto';

export type ServerName = 'postgres' | 'nats' | 'redis';

export type FaultKind = 'kill' | 'pause' | 'restart-postgres' | 'restart-nats' | 'restart-redis';

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
  /** Mean gap between two faults. */
  faultEveryMs: number;
  partners: number;
  clients: number;
  quietTimeoutMs: number;
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

const ALL_FAULTS: FaultKind[] = ['kill', 'pause', 'restart-postgres', 'restart-nats', 'restart-redis'];

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
  const faults = (env.FAULTS || (servers === 'private' ? 'kill,pause,restart' : 'kill,pause'))
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .flatMap((f) => (f === 'restart' ? ALL_FAULTS.filter((k) => k.startsWith('restart-')) : [f]));
  for (const f of faults)
    if (!ALL_FAULTS.includes(f as FaultKind)) throw new Error(`FAULTS: unknown fault ${f}`);
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
    partners: whole(env, 'PARTNERS', 3),
    clients: whole(env, 'CLIENTS', 8),
    quietTimeoutMs: whole(env, 'QUIET_TIMEOUT', 150) * 1000,
    sabotage,
    servers,
    postgresBin: env.CHAOS_PG_BIN || undefined,
    natsServer: env.CHAOS_NATS_SERVER || '/usr/sbin/nats-server',
    redisServer: env.CHAOS_REDIS_SERVER || 'redis-server',
    machine,
    logLevel: env.CHAOS_LOG_LEVEL ?? 'fatal',
  };
}
