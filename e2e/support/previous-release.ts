// The previous release this code upgrades from: its fixture, the migrations of each service, and the tools
// the upgrade test loads it with.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { callOperation, connectBus } from '@coin/bus';
import { identity } from '@coin/contracts';
import type { NamedMigration } from '@coin/db';
import { identityMigrations } from '../../services/identity/src/migrations/index.ts';
import { leaderboardMigrations } from '../../services/leaderboard/src/migrations/index.ts';
import { onboardingMigrations } from '../../services/onboarding/src/migrations/index.ts';
import { rulesMigrations } from '../../services/rules/src/migrations/index.ts';
import { walletMigrations } from '../../services/wallet/src/migrations/index.ts';
import { webhooksMigrations } from '../../services/webhooks/src/migrations/index.ts';

/**
 * The databases of the previous release, populated through its gateway and dumped by
 * `node scripts/release-fixture.ts <version>` (e2e/fixtures/release-<version>): the newest one is the
 * release this code upgrades from.
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const version = (d: string) => d.replace('release-', '').split('.').map(Number);
const latest = readdirSync(FIXTURES)
  .filter((d) => /^release-\d+\.\d+\.\d+$/.test(d))
  .sort((a, b) => {
    const [x, y] = [version(a), version(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  })
  .at(-1);
export const FIXTURE = `${FIXTURES}${latest}/`;
export const manifest = JSON.parse(readFileSync(`${FIXTURE}manifest.json`, 'utf8'));
export const MIGRATIONS: Record<string, readonly NamedMigration[]> = {
  identity: identityMigrations,
  onboarding: onboardingMigrations,
  wallet: walletMigrations,
  rules: rulesMigrations,
  leaderboard: leaderboardMigrations,
  webhooks: webhooksMigrations,
};
export const SERVICES = Object.keys(MIGRATIONS);

export async function webhookSecretOf(env: NodeJS.ProcessEnv, partnerId: string): Promise<string | null> {
  const nc = await connectBus(env.NATS_URL!, 'upgrade-test', env.NATS_NAMESPACE!);
  try {
    return (await callOperation(nc, identity.getPartner, { partnerId, body: {} }, { timeoutMs: 10_000 }))
      .webhookSecret;
  } finally {
    await nc.close();
  }
}

export function psqlFile(url: string, file: string) {
  return promisify(execFile)('psql', [
    '-X',
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    `--dbname=${url}`,
    `--file=${file}`,
  ]);
}
