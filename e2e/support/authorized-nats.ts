import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectBus, type NatsConnection } from '@coin/bus';
import { freePort, reachable } from '@coin/testing';
import type { Role } from '../../scripts/nats-auth/permissions.ts';

const COMMAND = fileURLToPath(new URL('../../scripts/nats-auth/command.ts', import.meta.url));
const run = promisify(execFile);

export interface AuthorizedNats {
  url: string;
  namespace: string;
  seedOf(role: Role): string;
  connectAs(role: Role, name?: string): Promise<NatsConnection>;
  /** The server's log so far (permission violations are logged there). */
  log(): Promise<string>;
  /** Stops the server and starts it again on the same port and store (a NATS restart). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A nats-server of the test's own, on a free port, with the authorization `npm run nats:auth`
 * generates: every service, the gateway, the operator and the harness connect with their own nkey
 * and may do only what the contracts say. The shared server on 4222 has no authorization.
 */
export async function startAuthorizedNats(namespace: string): Promise<AuthorizedNats> {
  const dir = await mkdtemp(join(tmpdir(), 'coin-nats-auth-'));
  await run(process.execPath, [COMMAND, 'keys', dir]);
  await run(process.execPath, [
    COMMAND,
    'config',
    dir,
    '--namespace',
    namespace,
    '--out',
    join(dir, 'auth.conf'),
  ]);
  const seeds = new Map<Role, string>();
  for (const file of await readdir(dir))
    if (file.endsWith('.nk'))
      seeds.set(file.split('.')[0] as Role, (await readFile(join(dir, file), 'utf8')).trim());
  const port = await freePort();
  await writeFile(
    join(dir, 'nats.conf'),
    // A 256 KiB max_payload sends a few hundred KB through the large-payload stream, under the
    // same permissions as a 13 MB onboarding call on the default 1 MB.
    `listen: 127.0.0.1:${port}\nmax_payload: 262144\njetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }\ninclude ./auth.conf\n`,
  );
  const url = `nats://127.0.0.1:${port}`;
  let server: ChildProcess;
  const start = async () => {
    server = spawn('/usr/sbin/nats-server', ['-c', join(dir, 'nats.conf'), '-l', join(dir, 'nats.log')], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (!(await reachable(url, port, 200))) {
      if (Date.now() > deadline) throw new Error('nats-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stopServer = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  };
  await start();
  const seedOf = (role: Role) => {
    const seed = seeds.get(role);
    if (!seed) throw new Error(`no seed for ${role}`);
    return seed;
  };
  return {
    url,
    namespace,
    seedOf,
    connectAs: (role, name = `as-${role}`) => connectBus(url, name, namespace, seedOf(role)),
    log: () => readFile(join(dir, 'nats.log'), 'utf8'),
    async restart() {
      await stopServer();
      await start();
    },
    async stop() {
      await stopServer();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
