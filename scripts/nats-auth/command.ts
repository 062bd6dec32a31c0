/**
 * NATS credentials and the server's authorization (docs/operating/security.md, "NATS credentials"):
 *   npm run nats:auth -- keys <dir>                 a seed file <dir>/<role>.nk for each role that has none
 *   npm run nats:auth -- rotate <dir> <role>        a second seed for <role>, valid beside the first
 *   npm run nats:auth -- config <dir> [--namespace <ns>] [--out <file>]
 *                                                   the authorization block for every seed in <dir>
 * A seed file's role is its name up to the first dot (`wallet.nk`, `wallet.2026-11-23T10-00.nk`).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { publicKeyOf } from '@coin/bus';
import { runSubcommand } from '@coin/config';
import { nkeys } from '@nats-io/transport-node';
import { authorizationConfig, type NatsUser, ROLES, type Role } from './permissions.ts';

const usage =
  'usage: nats:auth keys <dir> | rotate <dir> <role> | config <dir> [--namespace <ns>] [--out <file>]';

function newSeed(): string {
  return new TextDecoder().decode(nkeys.createUser().getSeed());
}

function roleOf(file: string): Role {
  const role = file.split('.')[0] as Role;
  if (!ROLES.includes(role)) throw new Error(`${file}: "${role}" is not a role (${ROLES.join(', ')})`);
  return role;
}

async function seedFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.nk')).sort();
}

/** Every credential in `dir`, as the server must know it: the role and the public key. */
async function usersIn(dir: string): Promise<NatsUser[]> {
  const users: NatsUser[] = [];
  for (const file of await seedFiles(dir)) {
    const seed = (await readFile(join(dir, file), 'utf8')).trim();
    users.push({ role: roleOf(file), publicKey: publicKeyOf(seed) });
  }
  return users;
}

async function writeSeed(path: string): Promise<void> {
  // `wx`: never overwrite a seed a running process may still use.
  await writeFile(path, `${newSeed()}\n`, { mode: 0o600, flag: 'wx' });
  console.error(`wrote ${path}`);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { namespace: { type: 'string', default: '' }, out: { type: 'string' } },
});
await runSubcommand(usage, positionals, {
  async keys([dir]) {
    if (!dir) return 'usage';
    const have = new Set((await seedFiles(dir)).map(roleOf));
    for (const r of ROLES) if (!have.has(r)) await writeSeed(join(dir, `${r}.nk`));
  },
  async rotate([dir, role]) {
    if (!dir || !role) return 'usage';
    const stamp = new Date().toISOString().slice(0, 16).replace(/:/g, '-');
    await writeSeed(join(dir, `${roleOf(role)}.${stamp}.nk`));
  },
  async config([dir]) {
    if (!dir) return 'usage';
    const text = authorizationConfig(await usersIn(dir), values.namespace);
    if (values.out) await writeFile(values.out, text);
    else process.stdout.write(text);
  },
});
