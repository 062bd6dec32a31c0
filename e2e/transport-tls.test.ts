import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus } from '@coin/bus';
import { baseConfigSchema, loadConfig, natsTls, redisOptions } from '@coin/config';
import { freePort, reachable } from '@coin/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The clients' side of encryption in transit, against private servers that require it: NATS with
 * client TLS, Redis with TLS and AUTH, each server's certificate signed by a CA of the test's own.
 * The clients connect only with that CA (and Redis only with the password).
 */
const dir = mkdtempSync(join(tmpdir(), 'coin-tls-'));
const file = (name: string) => join(dir, name);
const servers: ChildProcess[] = [];
let natsPort: number;
let redisPort: number;
const password = 'a-redis-password-of-the-test';

function openssl(...args: string[]) {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

/** A CA, and a certificate for 127.0.0.1 that it signed. */
function certificates() {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=coin test CA',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  );
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file('san.ext'),
    '-out',
    file('server.crt'),
  );
  // A CA that signed nothing here: a client trusting it alone must refuse the servers.
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=another CA',
    '-keyout',
    file('other.key'),
    '-out',
    file('other.crt'),
  );
}

async function started(command: string, args: string[], port: number): Promise<void> {
  const child = spawn(command, args, { stdio: 'ignore' });
  servers.push(child);
  for (let i = 0; i < 100 && !(await reachable(`tcp://127.0.0.1:${port}`, port)); i++)
    await new Promise((r) => setTimeout(r, 100));
}

beforeAll(async () => {
  certificates();
  natsPort = await freePort();
  redisPort = await freePort();
  await started(
    '/usr/sbin/nats-server',
    [
      '-a',
      '127.0.0.1',
      '-p',
      String(natsPort),
      '--tls',
      '--tlscert',
      file('server.crt'),
      '--tlskey',
      file('server.key'),
    ],
    natsPort,
  );
  await started(
    'redis-server',
    [
      '--port',
      '0',
      '--bind',
      '127.0.0.1',
      '--tls-port',
      String(redisPort),
      '--tls-cert-file',
      file('server.crt'),
      '--tls-key-file',
      file('server.key'),
      '--tls-ca-cert-file',
      file('ca.crt'),
      '--tls-auth-clients',
      'no',
      '--requirepass',
      password,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    redisPort,
  );
}, 30_000);

afterAll(() => {
  for (const s of servers) s.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const settings = (env: Record<string, string>) =>
  loadConfig(baseConfigSchema, { APP_MODE: 'development', ...env });

describe('NATS with client TLS', () => {
  it('connects with the CA that signed the server, and not without it', async () => {
    const config = settings({ NATS_URL: `tls://127.0.0.1:${natsPort}`, NATS_TLS_CA_FILE: file('ca.crt') });
    const nc = await connectBus(config.NATS_URL, 'tls-test', '', undefined, natsTls(config));
    expect(nc.info?.tls_required).toBe(true);
    await nc.flush();
    await nc.close();
    const other = settings({ NATS_URL: `tls://127.0.0.1:${natsPort}`, NATS_TLS_CA_FILE: file('other.crt') });
    const refused = connectBus(other.NATS_URL, 'tls-test', '', undefined, natsTls(other));
    await expect(
      Promise.race([refused, new Promise((_, no) => setTimeout(() => no(new Error('hung')), 5000))]),
    ).rejects.toThrow();
  });
});

describe('Redis with TLS and AUTH', () => {
  const url = () => `rediss://127.0.0.1:${redisPort}`;

  it('answers a client with the CA and the password, and no other', async () => {
    const config = settings({
      REDIS_URL: url(),
      REDIS_PASSWORD: password,
      REDIS_TLS_CA_FILE: file('ca.crt'),
    });
    const redis = new Redis(config.REDIS_URL, {
      ...redisOptions(config, readFileSync),
      maxRetriesPerRequest: 0,
    });
    expect(await redis.ping()).toBe('PONG');
    redis.disconnect();
    const noPassword = settings({ REDIS_URL: url(), REDIS_TLS_CA_FILE: file('ca.crt') });
    const anonymous = new Redis(noPassword.REDIS_URL, {
      ...redisOptions(noPassword, readFileSync),
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    anonymous.on('error', () => undefined);
    await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
    anonymous.disconnect();
    const otherCa = settings({
      REDIS_URL: url(),
      REDIS_PASSWORD: password,
      REDIS_TLS_CA_FILE: file('other.crt'),
    });
    const untrusted = new Redis(otherCa.REDIS_URL, {
      ...redisOptions(otherCa, readFileSync),
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    const errors: string[] = [];
    untrusted.on('error', (err: Error) => errors.push(err.message));
    await expect(untrusted.connect()).rejects.toThrow();
    expect(errors.join('; ')).toMatch(/certificate/);
    untrusted.disconnect();
  });
});
