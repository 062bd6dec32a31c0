/**
 * `node scripts/release-fixture.ts <version> [out-dir]`: at a release, records what its databases
 * look like in use, for the next release's upgrade test (e2e/upgrade-from-previous-release.test.ts):
 * starts every service on fresh databases, populates them through the gateway (a partner, tiers,
 * users, a rule and rewards, transfers both ways, an API key, a webhook URL, an account user), and
 * writes one plain SQL dump per service and a manifest to `e2e/fixtures/release-<version>/`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dropDatabase } from '@coin/db';
import { type ApiClient, type ApiResponse, eventuallyPasses } from '@coin/testing';
import { wholeCoinBoard } from '../e2e/support/leaderboard.ts';
import { registerAndLogin } from '../e2e/support/partners.ts';
import { createRule, onboardUsers, reward } from '../e2e/support/rewards.ts';
import { stackWith } from '../e2e/support/stack.ts';

const SERVICES = ['identity', 'onboarding', 'wallet', 'rules', 'leaderboard', 'webhooks'];
const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version))
  throw new Error('usage: release-fixture.ts <x.y.z> [out-dir]');
const out = process.argv[3] ?? `e2e/fixtures/release-${version}`;

async function ok(call: Promise<ApiResponse>, what: string): Promise<ApiResponse> {
  const res = await call;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res;
}

async function populate(api: ApiClient, email: string, password: string) {
  const partner = await registerAndLogin(api, {
    email,
    password,
    confirmPassword: password,
    partnerName: 'Fixture Ltd',
  });
  const token = partner.accessToken;
  await ok(api.post('/api/v1/ufel/partners/api-keys', { name: 'fixture key' }, { token }), 'api key');
  await ok(
    api.put('/api/v1/ufel/partners/webhook', { url: 'http://127.0.0.1:9/hook' }, { token }),
    'webhook',
  );
  const gold = await ok(api.post('/api/v1/laas/tiers', { name: 'gold', rank: 2 }, { token }), 'tier');
  await ok(api.post('/api/v1/laas/tiers', { name: 'silver', rank: 1 }, { token }), 'tier');
  const users = await onboardUsers(api, token, 12);
  await ok(
    api.post('/api/v1/laas/user/upgrade-tier', { userId: users[0], tierId: gold.body.data.id }, { token }),
    'tier',
  );
  const rule = {
    name: 'first purchase',
    coinValue: '25',
    maxNumberOfParticipant: '100',
    condition: 'fixture',
  };
  await ok(createRule(api, token, rule), 'rule');
  for (const userId of users.slice(0, 4))
    await ok(reward(api, token, { userId, ruleName: rule.name }), 'reward');
  for (let i = 0; i < 30; i++) {
    const body = { userId: users[i % users.length], coins: (i + 1) * 1.25 };
    const headers = { 'idempotency-key': `fixture-${i}` };
    await ok(api.post('/api/v1/laas/coins/transfer-to-user-wallet', body, { token, headers }), 'transfer');
  }
  for (let i = 0; i < 5; i++)
    await ok(
      api.post('/api/v1/laas/coins/transfer-from-user-wallet', { userId: users[i], coins: 1 }, { token }),
      'debit',
    );
  await ok(
    api.post('/api/v1/user', {
      email: 'ada@fixture.example',
      fullname: 'Ada Fixture',
      password: 'correct horse battery',
      confirmPassword: 'correct horse battery',
      phone: '8012345678',
      tag: 'ada_fixture',
      isAdult: true,
      dateOfBirth: '1990-12-10',
      countryCode: '+234',
    }),
    'account user',
  );
  const balances: Record<string, string> = {};
  for (const userId of users) {
    const b = await ok(api.get('/api/v1/laas/coins/balance', { token, query: { userId } }), 'balance');
    balances[userId] = Number(b.body.data.coins).toFixed(2);
  }
  const now = new Date();
  // Every event applied before the dump, as in a quiet production database.
  await eventuallyPasses(async () => {
    const board = await wholeCoinBoard(api, token, now.getUTCFullYear(), now.getUTCMonth() + 1);
    if (board.length !== users.length) throw new Error('board not complete yet');
  }, 30_000);
  return {
    partnerId: partner.partnerId,
    users,
    ruleName: rule.name,
    balances,
    populatedAt: now.toISOString(),
  };
}

const base = (process.env.DATABASE_URL_BASE ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/$/, '');
const suffix = Date.now().toString(36);
const urls = Object.fromEntries(SERVICES.map((s) => [s, `${base}/coin_fixture_${s}_${suffix}`]));
const stack = await stackWith(SERVICES, {
  AUTH_RATE_LIMIT_MAX: '1000',
  ...Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_DATABASE_URL`, urls[s]])),
});
const email = `release-${version}@fixture.example`;
const password = `fixture password ${version}`;
let data: Awaited<ReturnType<typeof populate>>;
try {
  data = await populate(stack.api, email, password);
  await new Promise((r) => setTimeout(r, 1500));
} finally {
  await stack.stop();
}
try {
  mkdirSync(out, { recursive: true });
  for (const s of SERVICES) {
    const sql = execFileSync(
      'pg_dump',
      ['--format=plain', '--no-owner', '--no-privileges', `--dbname=${urls[s]}`],
      {
        maxBuffer: 256 << 20,
      },
    ).toString();
    // psql before 15.14 does not know the \restrict guard newer pg_dump writes.
    writeFileSync(`${out}/${s}.sql`, sql.replace(/^\\(un)?restrict .*\n/gm, ''));
  }
  const { partnerId, ...rest } = data;
  const manifest = { release: version, partner: { email, password, partnerId }, ...rest };
  writeFileSync(`${out}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`release ${version}: ${SERVICES.length} databases written to ${out}`);
} finally {
  await Promise.all(Object.values(urls).map((u) => dropDatabase(u).catch(() => undefined)));
}
process.exit(0);
