import { adminUrlFor } from '@coin/config';
import { type Stack, serviceDatabases, startStack, withDatabase } from '@coin/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starters } from './support/stack.ts';

/**
 * Each service reaches its own database as its own role and nothing else: a compromised leaderboard
 * holds credentials that open neither identity's database (API keys, webhook secrets) nor the
 * wallet's (its ledger functions), and no service role can change its schema or create a database.
 */
let stack: Stack;

beforeAll(async () => {
  const services = {
    identity: starters.identity,
    wallet: starters.wallet,
    leaderboard: starters.leaderboard,
  };
  stack = await startStack({ services });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const urlOf = (service: string) => stack.env[`${service.toUpperCase()}_DATABASE_URL`]!;

/** `service`'s credentials pointed at `other`'s database. */
function crossed(service: string, other: string): string {
  const url = new URL(urlOf(service));
  url.pathname = new URL(urlOf(other)).pathname;
  return url.toString();
}

async function connectError(url: string): Promise<{ code?: string; message: string }> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    return err as { code?: string; message: string };
  } finally {
    await client.end().catch(() => undefined);
  }
  throw new Error(`${new URL(url).username} connected to ${new URL(url).pathname}`);
}

async function sqlError(url: string, sql: string): Promise<string | undefined> {
  return withDatabase(url, (c) => c.query(sql)).then(
    () => undefined,
    (err: { code?: string }) => err.code,
  );
}

describe('database roles', () => {
  it('runs every service as its own role, which owns nothing', async () => {
    for (const service of ['identity', 'wallet', 'leaderboard']) {
      const [role] = await withDatabase(urlOf(service), async (c) => {
        const { rows } = await c.query(
          `SELECT r.rolname, r.rolsuper, r.rolcreatedb, r.rolcreaterole, pg_get_userbyid(d.datdba) AS owner
             FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`,
        );
        return rows;
      });
      expect(role).toEqual({
        rolname: `coin_${service}`,
        rolsuper: false,
        rolcreatedb: false,
        rolcreaterole: false,
        owner: 'coin_migrate',
      });
      const database = new URL(urlOf(service)).pathname.slice(1);
      const users = await withDatabase(adminUrlFor(undefined), async (c) => {
        const { rows } = await c.query(
          'SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [database],
        );
        return rows.map((r) => r.usename);
      });
      expect(users).toEqual([`coin_${service}`]);
    }
  });

  it("refuses the leaderboard's credentials on identity's and the wallet's databases", async () => {
    for (const other of ['identity', 'wallet']) {
      const err = await connectError(crossed('leaderboard', other));
      expect(err.code).toBe('42501');
      expect(err.message).toMatch(/permission denied for database/);
    }
    expect((await connectError(crossed('wallet', 'identity'))).code).toBe('42501');
  });

  it("leaves the leaderboard no way to the wallet's ledger functions", async () => {
    // Not in its own database, and its role may not connect to the wallet's (above).
    expect(await sqlError(urlOf('leaderboard'), "SELECT 'wallet_apply_ledger_batch'::regproc")).toBe('42883');
    const wallet = await withDatabase(urlOf('wallet'), async (c) => {
      const { rows } = await c.query(
        `SELECT proname, has_function_privilege('coin_leaderboard', oid, 'EXECUTE') AS leaderboard,
                has_function_privilege(oid, 'EXECUTE') AS own
           FROM pg_proc WHERE proname LIKE 'wallet_apply%'`,
      );
      return rows;
    });
    expect(wallet.length).toBeGreaterThan(0);
    for (const f of wallet) expect(f).toMatchObject({ own: true, leaderboard: false });
  });

  it('lets a service role change no schema and create no database', async () => {
    const wallet = urlOf('wallet');
    expect(await sqlError(wallet, 'DROP TABLE ledger_entries')).toBe('42501');
    expect(await sqlError(wallet, 'ALTER TABLE ledger_entries DISABLE TRIGGER USER')).toBe('42501');
    expect(await sqlError(wallet, 'CREATE TABLE stolen (x int)')).toBe('42501');
    expect(
      await sqlError(
        wallet,
        'CREATE OR REPLACE FUNCTION wallet_queue_entries_for_seal() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$',
      ),
    ).toBe('42501');
    expect(await sqlError(wallet, 'CREATE DATABASE coin_t_stolen')).toBe('42501');
    expect(await sqlError(urlOf('identity'), 'CREATE ROLE thief LOGIN')).toBe('42501');
  });
});

describe('a service starting', () => {
  it('refuses a database whose migrations were not applied, naming them', async () => {
    const dbs = await serviceDatabases(['leaderboard']);
    try {
      const env: NodeJS.ProcessEnv = {
        ...stack.env,
        LEADERBOARD_DATABASE_URL: dbs.env.LEADERBOARD_DATABASE_URL,
      };
      delete env.LEADERBOARD_MIGRATION_DATABASE_URL;
      await expect(starters.leaderboard(env)).rejects.toThrow(
        /leaderboard: \d+ migration\(s\) not applied \(events-/,
      );
    } finally {
      await dbs.drop();
    }
  });

  it('refuses in production a role with more power than its job', async () => {
    const superuser = new URL(adminUrlFor(undefined));
    superuser.pathname = new URL(urlOf('leaderboard')).pathname;
    const env: NodeJS.ProcessEnv = {
      ...stack.env,
      APP_MODE: 'production',
      LEADERBOARD_DATABASE_URL: superuser.toString(),
    };
    delete env.LEADERBOARD_MIGRATION_DATABASE_URL;
    await expect(starters.leaderboard(env)).rejects.toThrow(
      /role postgres has more power than a service needs \(superuser, CREATEDB, CREATEROLE, BYPASSRLS, may create objects in it\); production refuses to start/,
    );
  });
});
