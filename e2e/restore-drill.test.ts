import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabase } from '@coin/db';
import { eventuallyPasses, type Stack, withOwnRoles } from '@coin/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { sumCoins, wholeCoinBoard, wholePointsBoard } from './support/leaderboard.ts';
import { partnerClient, type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { ledgerOf, queryEach, runCommand, seededRandom, streamEventIds } from './support/restore.ts';
import { onboardUsers } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';

const SERVICES = ['identity', 'onboarding', 'wallet', 'rules', 'leaderboard', 'webhooks'];
const FAST = { AUTH_RATE_LIMIT_MAX: '1000', REWARD_RETRY_POLL_MS: '100', REWARD_RETRY_BASE_MS: '100' };
const stacks: Stack[] = [];
const restored: Record<string, string> = {};
const restoredAdmin: string[] = [];
let backupDir: string | undefined;

afterAll(async () => {
  for (const s of stacks) await s.stop().catch(() => undefined);
  await Promise.all(restoredAdmin.map((url) => dropDatabase(url).catch(() => undefined)));
  if (backupDir) await rm(backupDir, { recursive: true, force: true });
});

/**
 * The backup CronJob's own command (k8s/base/backup-cronjob.yaml), its volume at `root`: the drill
 * restores from what the schedule makes, not from a backup taken some other way.
 */
function scheduledBackup(root: string): { script: string; args: string[] } {
  const file = fileURLToPath(new URL('../k8s/base/backup-cronjob.yaml', import.meta.url));
  const cron = parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS())
    .find((d) => d.kind === 'CronJob');
  const container = cron.spec.jobTemplate.spec.template.spec.containers[0];
  const mount: string = container.volumeMounts[0].mountPath;
  const [script, ...args] = (container.args as string[]).map((a) => (a === mount ? root : a));
  return { script, args };
}

interface Acked {
  id: string;
  userId: string;
  at: number;
}

/** Transfers through the gateway until stopped, a few at a time; each acknowledged one is recorded. */
function startTransfers(api: Stack['api'], token: string, users: readonly string[], seed: number) {
  const random = seededRandom(seed);
  const acked: Acked[] = [];
  let stopping = false;
  const worker = async () => {
    while (!stopping) {
      const userId = users[random(users.length)];
      const credit = random(10) < 8;
      const coins = credit ? (1 + random(20_000)) / 100 : 1;
      const path = `/api/v1/laas/coins/transfer-${credit ? 'to' : 'from'}-user-wallet`;
      const res = await api.post(path, { userId, coins }, { token });
      if (res.status === 200) acked.push({ id: res.body.data.coinsLedger.id, userId, at: Date.now() });
      else expect(res.status).toBe(422); // a debit larger than the wallet
    }
  };
  const workers = [worker(), worker(), worker()];
  return {
    acked,
    async stop() {
      stopping = true;
      await Promise.all(workers);
    },
  };
}

describe('restore drill: the scheduled backup while transfers run, restored into fresh databases, started on', () => {
  it('keeps every acknowledged transfer, a valid ledger, rebuilt boards, and sends no applied event again', async () => {
    const seed = Number(process.env.RESTORE_DRILL_SEED ?? randomBytes(4).readUInt32BE());
    console.log(`restore drill seed ${seed} (RESTORE_DRILL_SEED=${seed} replays the workload)`);
    const live = await stackWith(SERVICES, FAST);
    stacks.push(live);
    const partner: RegisteredPartner = await registerAndLogin(live.api);
    const users = await onboardUsers(live.api, partner.accessToken, 15);
    const ruleName = `drill ${randomUUID().slice(0, 8)}`;
    const sdk = partnerClient(live.api, partner);
    await sdk.createRule({
      name: ruleName,
      coinValue: '25',
      maxNumberOfParticipant: '100',
      condition: 'restore drill',
    });
    for (const userId of users.slice(0, 6)) await sdk.rewardUser({ userId, ruleName });

    const work = startTransfers(live.api, partner.accessToken, users, seed);
    await new Promise((r) => setTimeout(r, 1500));
    backupDir = await mkdtemp(join(tmpdir(), 'coin-backup-'));
    const schedule = scheduledBackup(backupDir);
    const backupStarted = Date.now();
    const backup = await runCommand(schedule.script, schedule.args, live.env);
    const backupFinished = Date.now();
    await work.stop();
    console.log(backup.output.trim());
    expect(backup.code).toBe(0);
    const before = work.acked.filter((t) => t.at < backupStarted);
    const during = work.acked.filter((t) => t.at >= backupStarted && t.at <= backupFinished);
    expect(before.length).toBeGreaterThan(0);
    expect(during.length).toBeGreaterThan(0);
    await live.stop();
    stacks.pop();

    // Fresh databases and their roles (npm run db:roles); the stream and the partner's index as a new
    // environment would have them.
    const suffix = randomBytes(4).toString('hex');
    for (const s of SERVICES) {
      const own = await withOwnRoles(s, `coin_t_${s}_r${suffix}`);
      restored[`${s.toUpperCase()}_DATABASE_URL`] = own.url;
      restored[`${s.toUpperCase()}_MIGRATION_DATABASE_URL`] = own.migrationUrl;
      restoredAdmin.push(own.adminUrl);
    }
    const env = { ...live.env, ...restored };
    const restore = await runCommand(
      'backup/src/restore-command.ts',
      ['--latest', backupDir, '--leaderboard-keys', `lb:v1:{${partner.partnerId}}:*`],
      env,
    );
    console.log(restore.output.trim());
    expect(restore.code).toBe(0);
    expect(restore.output).toContain('the newest complete backup in');
    const again = await runCommand('backup/src/restore-command.ts', ['--latest', backupDir], env);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/restore failed: \w+: coin_t_\w+ is not empty/);
    const urls = SERVICES.map((s) => restored[`${s.toUpperCase()}_DATABASE_URL`]);
    const appliedAtRestore = new Set(
      (await queryEach<{ event_id: string }>(urls, 'SELECT event_id FROM applied_events')).map(
        (r) => r.event_id,
      ),
    );
    const written = new Set(
      (await queryEach<{ id: string }>(urls, 'SELECT id::text FROM outbox')).map((r) => r.id),
    );
    // The dump order: nothing a consumer applied is missing from its producer's restored outbox.
    expect([...appliedAtRestore].filter((id) => !written.has(id))).toEqual([]);

    const verify = await runCommand('services/wallet/src/tools/verify-ledger.ts', [], env);
    console.log(verify.output.trim());
    expect(verify.code).toBe(0);

    const back = await stackWith(SERVICES, { ...FAST, ...restored });
    stacks.push(back);
    // The restored identity knows the partner: its password and signing keys came back with it.
    const { tokens } = await partnerClient(back.api).login({
      email: partner.email,
      password: partner.password,
    });
    const token = tokens.accessToken;
    const ledger = await ledgerOf(back.api, token, users);
    const present = new Set([...ledger.values()].flat().map((e) => e.id));
    const missing = before.filter((t) => !present.has(t.id));
    const duringKept = during.filter((t) => present.has(t.id)).length;
    console.log(
      `transfers acknowledged: ${work.acked.length} in all, ${before.length} before the backup started ` +
        `(${before.length - missing.length} present after the restore), ${during.length} during it ` +
        `(${duringKept} present), ${present.size} ledger entries restored`,
    );
    expect(missing).toEqual([]);

    const now = new Date();
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    const ym = `${year}-${String(month).padStart(2, '0')}`;
    const expectedCoins = new Map<string, string>();
    const expectedPoints = new Map<string, number>();
    for (const [userId, entries] of ledger) {
      const credits = entries.filter((e) => e.debitOrCredit === 'CR' && e.createdAt.startsWith(ym));
      if (credits.length) expectedCoins.set(userId, sumCoins(credits.map((e) => e.coins.toFixed(2))));
      const rewards = entries.filter(
        (e) => e.debitOrCredit === 'CR' && e.narration === `reward: ${ruleName}`,
      );
      if (rewards.length)
        expectedPoints.set(userId, Number(sumCoins(rewards.map((e) => e.coins.toFixed(2)))));
    }
    const boards = await eventuallyPasses(async () => {
      const coins = await wholeCoinBoard(back.api, token, year, month);
      expect(new Map(coins.map((e) => [e.userId, e.coins]))).toEqual(expectedCoins);
      const points = await wholePointsBoard(back.api, token);
      expect(new Map(points.map((e) => [e.user?.userId, e.points]))).toEqual(expectedPoints);
      return { coins, points };
    }, 30_000);
    console.log(
      `leaderboards after the restore: coin board ${boards.coins.length} users, total ` +
        `${sumCoins(boards.coins.map((e) => e.coins))} = ledger credits ${sumCoins([...expectedCoins.values()])}; ` +
        `points board ${boards.points.length} users = ${expectedPoints.size} rewarded in the ledger`,
    );

    const published = await streamEventIds(back.env);
    const resent = published.filter((id) => appliedAtRestore.has(id));
    console.log(
      `event stream rebuilt from the outboxes: ${published.length} events, ` +
        `${resent.length} of them already applied by a restored consumer`,
    );
    expect(published.length).toBeGreaterThan(0);
    expect(resent).toEqual([]);
  }, 180_000);
});
