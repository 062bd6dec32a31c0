import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connectBus, namesOf } from '@coin/bus';
import type { ApiClient } from '@coin/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { type PartnerClient, partnerClient } from './partners.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs one of the project's commands as an operator would, and returns its exit code and output. */
export function runCommand(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** The rows one query returns from each of the given databases, together. */
export async function queryEach<T>(urls: readonly string[], sql: string): Promise<T[]> {
  const out: T[] = [];
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      out.push(...(await client.query(sql)).rows);
    } catch (err) {
      // 42P01: this database has no such table (a service without an outbox or consumers).
      if ((err as { code?: string }).code !== '42P01') throw err;
    } finally {
      await client.end();
    }
  }
  return out;
}

/** The `Nats-Msg-Id` (the outbox event id) of every message in the stack's event stream. */
export async function streamEventIds(env: NodeJS.ProcessEnv): Promise<string[]> {
  const nc = await connectBus(
    env.NATS_URL ?? 'nats://127.0.0.1:4222',
    'restore-drill',
    env.NATS_NAMESPACE ?? '',
  );
  try {
    const jsm = await jetstreamManager(nc);
    const stream = namesOf(nc).stream;
    const { state } = await jsm.streams.info(stream);
    const ids: string[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      const id = msg?.header.get('Nats-Msg-Id');
      if (id) ids.push(id);
    }
    return ids;
  } finally {
    await nc.close();
  }
}

/** Every ledger entry of the given users, through the SDK's pages of their history. */
export async function ledgerOf(api: ApiClient, token: string, users: readonly string[]) {
  const sdk = partnerClient(api, token);
  const entries = new Map<string, LedgerEntry[]>();
  for (const userId of users) {
    const mine: LedgerEntry[] = [];
    for await (const entry of sdk.iterate('getUserTransactions', { userId, limit: 100 })) mine.push(entry);
    entries.set(userId, mine);
  }
  return entries;
}

type LedgerEntry = Awaited<ReturnType<PartnerClient['getUserTransactions']>>['data'][number];

/** A seeded generator (mulberry32): the drill's workload can be replayed from its printed seed. */
export function seededRandom(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}
