import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { adminUrlFor } from '@coin/config';
import { dropDatabase, ensureDatabase, migrateDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { eventuallyPasses, queryDatabase, type Stack, withOwnRoles } from '@coin/testing';
import { decodeProtectedHeader } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetPartnerIndex, sumCoins, wholeCoinBoard, wholePointsBoard } from './support/leaderboard.ts';
import { partnerClient } from './support/partners.ts';
import {
  FIXTURE,
  MIGRATIONS,
  manifest,
  psqlFile,
  SERVICES,
  webhookSecretOf,
} from './support/previous-release.ts';
import { ledgerOf, queryEach, runCommand } from './support/restore.ts';
import { onboardUsers } from './support/rewards.ts';
import { expansion, narrowing, type Schema, schemaDump, schemaOf } from './support/schema.ts';
import { stackWith } from './support/stack.ts';

/**
 * Narrowing changes shipped knowingly since the previous release, each with the statement that makes
 * the schema fit that release again for a rollback (and a line in CHANGELOG.md). Empty: every migration
 * since expands only (contract one release later), so anything narrowing fails the test.
 */
const KNOWN_NARROWING: Record<string, string> = {};

/**
 * Tables dropped since the previous release that its code never read nor wrote, each with why: a
 * rollback needs no step for them. Every service used to get both the outbox and the applied-event
 * ids; now a publisher has only the first and a consumer only the second.
 */
const UNUSED_BY_PREVIOUS_RELEASE: Record<string, string> = {
  'leaderboard: table outbox dropped': 'its leaderboard published no event (no outbox relay)',
  'webhooks: table outbox dropped': 'its webhooks service published no event (no outbox relay)',
  'onboarding: table applied_events dropped': 'its onboarding service consumed no event',
  'rules: table applied_events dropped': 'its rules service consumed no event',
  'wallet: table applied_events dropped': 'its wallet consumed no event',
};
/**
 * Restrictions added to a table of the previous release that bind only rows its code never writes,
 * each with why: that release meets them as it did before.
 */
const ONLY_ROWS_THE_PREVIOUS_RELEASE_NEVER_WRITES: Record<string, string> = {
  'wallet: accounts: accounts_hold added':
    "one hold per user, a partial index on kind 'hold', an account kind the previous release never writes",
  'rules: rules: rules_limits added':
    'binds the limit, budget, spent and window columns only: the previous release writes none of them (spent keeps its default 0)',
};
const noticed = (narrowings: string[]) =>
  narrowings.filter(
    (n) => !(n in UNUSED_BY_PREVIOUS_RELEASE) && !(n in ONLY_ROWS_THE_PREVIOUS_RELEASE_NEVER_WRITES),
  );

/**
 * The previous release's own statements on the tables whose schema changed since, with checks of what
 * the current code sees of them (fixture `writes/<service>.sql`): that release still runs on the
 * migrated schema, so a rollback needs no step and both can serve side by side during a rolling update.
 */
const WRITES = `${FIXTURE}writes/`;

const urls: Record<string, string> = {};
const freshUrls: Record<string, string> = {};
let stack: Stack | undefined;

afterAll(async () => {
  await stack?.stop();
  await Promise.all(
    [...Object.values(urls), ...Object.values(freshUrls)].map((u) => dropDatabase(u).catch(() => undefined)),
  );
});

/** The webhook secret identity gives the webhooks service for the partner. */
async function migrationsOf(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const s of SERVICES)
    out.set(
      s,
      (await queryEach<{ name: string }>([urls[s]], 'SELECT name FROM mikro_orm_migrations ORDER BY id')).map(
        (r) => r.name,
      ),
    );
  return out;
}

describe(`upgrade from release ${manifest.release}: the current code on databases populated by the previous one`, () => {
  it('applies every newer migration, expands only, and serves the old data', async () => {
    const suffix = randomBytes(4).toString('hex');
    for (const s of SERVICES) {
      const url = new URL(adminUrlFor(undefined));
      url.pathname = `/coin_t_${s}_u${suffix}`;
      urls[s] = url.toString();
      await ensureDatabase(urls[s]);
      await psqlFile(urls[s], `${FIXTURE}${s}.sql`);
    }
    // What an operator does before upgrading (CHANGELOG): the databases handed to the migration role,
    // each service given its own role; the services then migrate as the one and run as the other.
    const roles: Record<string, string> = {};
    for (const s of SERVICES) {
      const own = await withOwnRoles(s, new URL(urls[s]).pathname.slice(1));
      roles[`${s.toUpperCase()}_DATABASE_URL`] = own.url;
      roles[`${s.toUpperCase()}_MIGRATION_DATABASE_URL`] = own.migrationUrl;
    }
    const before = new Map<string, Schema>();
    for (const s of SERVICES) before.set(s, await schemaOf(urls[s]));
    const migrationsBefore = await migrationsOf();
    // The fixture's partner id is the same every run: its index must come from these databases.
    await forgetPartnerIndex(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', manifest.partner.partnerId);

    stack = await stackWith(SERVICES, {
      AUTH_RATE_LIMIT_MAX: '1000',
      // The fixture was recorded days ago, past the 72 hours a key is kept, and the wallet purges
      // expired keys as it starts: the key's replay below checks that the upgrade kept it.
      WALLET_IDEMPOTENCY_TTL_HOURS: String(10 * 365 * 24),
      ...roles,
    });
    const migrationsAfter = await migrationsOf();
    const found: string[] = [];
    for (const s of SERVICES) {
      const added = migrationsAfter.get(s)!.filter((m) => !migrationsBefore.get(s)!.includes(m));
      expect(migrationsAfter.get(s)!.slice(0, migrationsBefore.get(s)!.length)).toEqual(
        migrationsBefore.get(s),
      );
      const after = await schemaOf(urls[s]);
      const narrowed = narrowing(before.get(s)!, after).map((n) => `${s}: ${n}`);
      found.push(...narrowed);
      console.log(
        `${s}: ${migrationsBefore.get(s)!.length} migrations of ${manifest.release}, applied ${added.length} more` +
          `${added.length ? ` (${added.join(', ')})` : ''}; ${expansion(before.get(s)!, after)}` +
          `${narrowed.length ? `; narrowing: ${narrowed.join('; ')}` : ''}`,
      );
    }
    // A new entry here is a migration the previous release's code may trip on: make it expand-only,
    // or list it above and in CHANGELOG.md with the step that makes a rollback work.
    expect(noticed(found).sort()).toEqual(Object.keys(KNOWN_NARROWING).sort());

    // A database migrated from zero by the current code has exactly the schema the upgrade left.
    for (const s of SERVICES) {
      freshUrls[s] = urls[s].replace(`_u${suffix}`, `_f${suffix}`);
      await migrateDatabase({
        url: freshUrls[s],
        migrations: MIGRATIONS[s],
        log: createLogger('upgrade-test', 'silent'),
      });
      expect(await schemaDump(freshUrls[s]), `${s}: fresh and upgraded schemas differ`).toBe(
        await schemaDump(urls[s]),
      );
    }
    console.log(
      `a fresh database migrated from zero and the upgraded ${manifest.release} fixture: identical schemas ` +
        `(pg_dump --schema-only) for ${SERVICES.join(', ')}`,
    );

    const { tokens } = await partnerClient(stack.api).login({
      email: manifest.partner.email,
      password: manifest.partner.password,
    });
    const token = tokens.accessToken;
    // A partner of 1.0.0 is its team's one member, its owner, logging in as before.
    expect(await partnerClient(stack.api, token).listMembers()).toEqual({
      data: [expect.objectContaining({ email: manifest.partner.email, role: 'owner' })],
    });
    // 1.0.0 kept its signing key in plain text: now encrypted, it still signs (the same kid).
    const keys = await queryEach<{ kid: string; private_jwk: unknown; private_key_encrypted: string | null }>(
      [urls.identity],
      'SELECT kid, private_jwk, private_key_encrypted FROM signing_keys',
    );
    expect(keys.map((k) => [k.private_jwk, k.private_key_encrypted?.slice(0, 3)])).toEqual(
      keys.map(() => [null, 'v1.']),
    );
    expect(keys.map((k) => k.kid)).toContain(decodeProtectedHeader(token).kid);
    // 1.0.0 kept webhook secrets in plain text: now encrypted at rest, the same secret to the webhooks service.
    const fixtureSecret = readFileSync(`${FIXTURE}identity.sql`, 'utf8').match(/whsec_[A-Za-z0-9+/=]+/)![0];
    const [secrets] = await queryDatabase<{ plain: string | null; sealed: string | null }>(
      urls.identity,
      'SELECT webhook_secret AS plain, webhook_secret_encrypted AS sealed FROM partners WHERE partner_id = $1',
      [manifest.partner.partnerId],
    );
    expect(secrets.plain).toBeNull();
    expect(secrets.sealed?.startsWith('v1.')).toBe(true);
    expect(secrets.sealed).not.toContain(fixtureSecret.slice(6, 26));
    expect(await webhookSecretOf(stack.env, manifest.partner.partnerId)).toBe(fixtureSecret);
    const sdk = partnerClient(stack.api, token);
    for (const [userId, coins] of Object.entries(manifest.balances as Record<string, string>))
      expect(Number((await sdk.getBalance({ userId })).coins).toFixed(2)).toBe(coins);
    const verify = await runCommand('services/wallet/src/tools/verify-ledger.ts', [], {
      ...stack.env,
      WALLET_DATABASE_URL: urls.wallet,
    });
    console.log(verify.output.trim());
    expect(verify.code).toBe(0);

    // The new code writes to the old data: a transfer, a reward of the old rule to a new user.
    const [newUser] = await onboardUsers(stack.api, token, 1);
    const users = [...manifest.users, newUser] as string[];
    const paid = await stack.api.post(
      '/api/v1/laas/coins/transfer-to-user-wallet',
      { userId: manifest.users[0], coins: 10 },
      { token, headers: { 'idempotency-key': `upgrade-${randomUUID()}` } },
    );
    expect(paid.status).toBe(200);
    await sdk.rewardUser({ userId: newUser, ruleName: manifest.ruleName });
    const replay = await stack.api.post(
      '/api/v1/laas/coins/transfer-to-user-wallet',
      { userId: manifest.users[0], coins: 1.25 },
      { token, headers: { 'idempotency-key': 'fixture-0' } },
    );
    expect(replay.body.data?.isExisting).toBe(true);

    // The boards, rebuilt from the migrated Postgres, agree with the ledger.
    const ledger = await ledgerOf(stack.api, token, users);
    const at = new Date(manifest.populatedAt);
    const ym = manifest.populatedAt.slice(0, 7);
    const credits = new Map<string, string>();
    const points = new Map<string, number>();
    for (const [userId, entries] of ledger) {
      const cr = entries.filter((e) => e.debitOrCredit === 'CR' && e.createdAt.startsWith(ym));
      if (cr.length) credits.set(userId, sumCoins(cr.map((e) => e.coins.toFixed(2))));
      const rw = entries.filter((e) => e.narration === `reward: ${manifest.ruleName}`);
      if (rw.length) points.set(userId, Number(sumCoins(rw.map((e) => e.coins.toFixed(2)))));
    }
    await eventuallyPasses(async () => {
      const coins = await wholeCoinBoard(stack!.api, token, at.getUTCFullYear(), at.getUTCMonth() + 1);
      expect(new Map(coins.map((e) => [e.userId, e.coins]))).toEqual(credits);
      const board = await wholePointsBoard(stack!.api, token);
      expect(new Map(board.map((e) => [e.user?.userId, e.points]))).toEqual(points);
    }, 30_000);
    console.log(
      `release ${manifest.release} data served by the current code: partner login, ${users.length - 1} balances, ` +
        `${[...ledger.values()].flat().length} ledger entries, boards equal to the ledger`,
    );

    // Rolling back: with the listed statements run, nothing the previous release uses is missing,
    // and its own writes succeed on the schema the current code left, and mean the same to both.
    const stackEnv = stack.env;
    await stack.stop();
    stack = undefined;
    for (const [change, sql] of Object.entries(KNOWN_NARROWING))
      await queryEach([urls[change.split(':')[0]]], sql);
    // 1.0.0 signs with a private key it reads in plain text (CHANGELOG: the rollback step).
    const decrypted = await runCommand('services/identity/src/tools/keys.ts', ['decrypt-for-rollback'], {
      ...stackEnv,
      IDENTITY_DATABASE_URL: urls.identity,
    });
    expect(decrypted.code, decrypted.output).toBe(0);
    expect(
      await queryEach([urls.identity], 'SELECT kid FROM signing_keys WHERE private_jwk IS NULL'),
    ).toEqual([]);
    const left: string[] = [];
    for (const s of SERVICES)
      left.push(...narrowing(before.get(s)!, await schemaOf(urls[s])).map((n) => `${s}: ${n}`));
    expect(noticed(left)).toEqual([]);
    const replayed = existsSync(WRITES) ? readdirSync(WRITES).filter((f) => f.endsWith('.sql')) : [];
    for (const file of replayed) await psqlFile(urls[file.replace(/\.sql$/, '')], `${WRITES}${file}`);
    console.log(
      `rollback to ${manifest.release}: ${Object.keys(KNOWN_NARROWING).length} statements, then no narrowing left; ` +
        `${manifest.release}'s writes on the changed tables run and read back as the current code expects ` +
        `(${replayed.join(', ') || 'none recorded'})`,
    );
  }, 120_000);
});
