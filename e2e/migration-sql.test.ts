import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { identityMigrations } from '../services/identity/src/migrations/index.ts';
import { leaderboardMigrations } from '../services/leaderboard/src/migrations/index.ts';
import { onboardingMigrations } from '../services/onboarding/src/migrations/index.ts';
import { rulesMigrations } from '../services/rules/src/migrations/index.ts';
import { walletMigrations } from '../services/wallet/src/migrations/index.ts';
import { webhooksMigrations } from '../services/webhooks/src/migrations/index.ts';

/**
 * A migration is applied once and tracked by name, so its SQL must never change afterwards: a database
 * migrated before the change and one migrated after would differ. These digests (SHA-256 of the
 * statements a migration file gives, as JSON) are what each wrote when it was applied; a file edited
 * after the fact fails here. Every migration is pinned: a new one fails until its digest (shown in
 * the failure) is added.
 */
const APPLIED: Record<string, string> = {
  'identity/0001-partners-and-tokens': 'f49039ba82cdeb4e',
  'identity/0002-account-users': 'ecc4f6a3df81c636',
  'identity/0003-one-partner-id': '914e7c3688502928',
  'identity/0004-mail-jobs': 'fdb20cde629c353c',
  'identity/0005-login-lock-level': '0235ae9ffb7f299b',
  'identity/0006-signing-key-rotation': '8d1b82c7d5e9f2cd',
  'identity/0007-webhook-events': 'fbaff4fbf62b1f7d',
  'identity/0008-parked-mail-index': '4cba88fb4a433661',
  'identity/0009-webhook-secret-encrypted': '6cd0aacde37a0810',
  'identity/0010-login-failures-per-client': '450bae9365801ef5',
  'identity/0012-api-key-scopes': 'e1215fa6a195e941',
  'identity/0013-email-codes-per-day': '2e5b541d5cde8872',
  'identity/0014-team-members-and-audit-log': 'd9fcebaa9fa06f2c',
  'identity/0015-login-unlock-tokens': '57eda4955db71e1e',
  'identity/0016-password-reset-tokens': 'c4b4fdb48b7374fc',
  'leaderboard/events-applied-events': 'f7dddda03630bd29',
  'leaderboard/events-applied-events-retention': '38820ec3f379239c',
  'leaderboard/0001-standings': '2074146c70f49443',
  'leaderboard/0002-no-outbox': '5b5c7d261de61f0d',
  'onboarding/events-outbox': '4fffc9d28fc85c38',
  'onboarding/events-outbox-retries': '8a111a04be4ed7c5',
  'onboarding/events-outbox-published-index': '7fe8865c553ba5a7',
  'onboarding/0001-users-tiers-requests': '29cf1dc980a7d8a2',
  'onboarding/0002-requests-lz4': 'fff02599c63360fc',
  'onboarding/0003-onboarding-jobs': '796a303f4c735bb6',
  'onboarding/0004-parked-requests-index': 'dcca6ad72a31c96c',
  'onboarding/0005-no-applied-events': 'd5532fdd07c562c4',
  'onboarding/0006-tier-rules': '2dbcc87f6ed49386',
  'rules/events-outbox': '4fffc9d28fc85c38',
  'rules/events-outbox-retries': '8a111a04be4ed7c5',
  'rules/events-outbox-published-index': '7fe8865c553ba5a7',
  'rules/0001-rules-and-participations': '5b97281466ce6d75',
  'rules/0002-reward-jobs': 'b4bf6f758bbd2609',
  'rules/0003-parked-rewards-index': '42fb2c9342350edc',
  'rules/0004-no-applied-events': 'd5532fdd07c562c4',
  'rules/0005-rule-limits-budgets': 'a626168f4e20b77d',
  'wallet/events-outbox': '4fffc9d28fc85c38',
  'wallet/events-outbox-retries': '8a111a04be4ed7c5',
  'wallet/events-outbox-published-index': '7fe8865c553ba5a7',
  'wallet/0001-ledger': '4ec95a5bf94351a0',
  'wallet/0002-transfer-batch': '5e79268446a6de9e',
  'wallet/0003-reversals-treasury': 'af25cef10d1acf06',
  'wallet/0004-ledger-chain': '214b86c27199f94f',
  'wallet/0005-previous-release-batch': 'a45836a7071e43e9',
  'wallet/0006-treasury-low': '02b574bc03d07c7a',
  'wallet/0007-batch-answers-array': 'e4fbe0add1aea819',
  'wallet/0008-rows-after-loop': '0942c70280704d35',
  'wallet/0009-seal-queue-per-statement': 'd6dc331ca14b9245',
  'wallet/0010-references-verified': 'f22c447712edfc5e',
  'wallet/0011-no-applied-events': 'd5532fdd07c562c4',
  'wallet/0012-ledger-batch-function': '0b8e2bd4c5e88c3e',
  'wallet/0013-pending-transfers': '55deee6d07d15c13',
  'wallet/0014-ledger-batch-pending': 'de6ea62923aa4469',
  'wallet/0015-credit-lots': '2b4d30a23f740fd2',
  'wallet/0016-ledger-batch-lots': 'b9e83b1e5d812e38',
  'webhooks/events-applied-events': 'f7dddda03630bd29',
  'webhooks/events-applied-events-retention': '38820ec3f379239c',
  'webhooks/0001-deliveries': '14eb5ff08e7289ee',
  'webhooks/0002-delivery-jobs': 'c0c94261ee39c929',
  'webhooks/0003-manual-redelivery': 'f0099d0d34f845bc',
  'webhooks/0004-event-sequences': '447e6afa0f34bd6c',
  'webhooks/0005-parked-deliveries-index': '4569150f6755d0a3',
  'webhooks/0006-no-outbox': '5b5c7d261de61f0d',
};

const SERVICES = {
  identity: identityMigrations,
  leaderboard: leaderboardMigrations,
  onboarding: onboardingMigrations,
  rules: rulesMigrations,
  wallet: walletMigrations,
  webhooks: webhooksMigrations,
};

type MigrationClass = new (
  driver: undefined,
  config: undefined,
) => { up(): Promise<void> | void; getQueries(): unknown[] };

async function digestOf(migration: { class: unknown }): Promise<string> {
  const m = new (migration.class as MigrationClass)(undefined, undefined);
  await m.up();
  return createHash('sha256').update(JSON.stringify(m.getQueries())).digest('hex').slice(0, 16);
}

describe('applied migrations', () => {
  it('write the SQL they were applied with, byte for byte', async () => {
    const digests: Record<string, string> = {};
    for (const [service, migrations] of Object.entries(SERVICES))
      for (const m of migrations) digests[`${service}/${m.name}`] = await digestOf(m);
    expect(digests).toEqual(APPLIED);
  });
});
