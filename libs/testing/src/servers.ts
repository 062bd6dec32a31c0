import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';

/** Whether something accepts a TCP connection at `url`'s host and port (its first, for a list). */
export function reachable(url: string, defaultPort: number, timeoutMs = 1000): Promise<boolean> {
  const { host, port } = hostPort(url, defaultPort);
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const u = new URL(url.split(',')[0]);
  return { host: u.hostname, port: Number(u.port || defaultPort) };
}

export function dockerAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

interface Server {
  env: string;
  fallback: string;
  defaultPort: number;
  image: string;
  containerPort: number;
  command?: string[];
  url: (host: string, port: number) => string;
}

const SERVERS: Server[] = [
  {
    env: 'DATABASE_URL_BASE',
    fallback: 'postgres://postgres@127.0.0.1:5432',
    defaultPort: 5432,
    image: 'postgres:16-alpine',
    containerPort: 5432,
    url: (h, p) => `postgres://postgres@${h}:${p}`,
  },
  {
    env: 'REDIS_URL',
    fallback: 'redis://127.0.0.1:6379',
    defaultPort: 6379,
    image: 'redis:7-alpine',
    containerPort: 6379,
    url: (h, p) => `redis://${h}:${p}`,
  },
  {
    env: 'NATS_URL',
    fallback: 'nats://127.0.0.1:4222',
    defaultPort: 4222,
    image: 'nats:2.10-alpine',
    containerPort: 4222,
    command: ['-js'],
    url: (h, p) => `nats://${h}:${p}`,
  },
];

/**
 * Makes sure Postgres, Redis and NATS answer at the addresses in the environment (the local
 * servers by default). Where one does not and Docker is present, a container stands in for it
 * and the environment is pointed at it; where neither, the error says what is missing.
 */
export async function ensureServers(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  for (const server of SERVERS) {
    const url = env[server.env] ?? server.fallback;
    const { host, port } = hostPort(url, server.defaultPort);
    if (await reachable(url, server.defaultPort)) continue;
    if (!dockerAvailable()) {
      throw new Error(
        `${server.env}: nothing answers at ${host}:${port} and there is no Docker engine to start one`,
      );
    }
    const { GenericContainer } = await import('testcontainers');
    let container = new GenericContainer(server.image).withExposedPorts(server.containerPort);
    if (server.image.startsWith('postgres'))
      container = container.withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' });
    if (server.command) container = container.withCommand(server.command);
    const started = await container.start();
    env[server.env] = server.url(started.getHost(), started.getMappedPort(server.containerPort));
  }
}
