import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The order the databases are dumped in: every service before the services it reads from or hears
 * from. Each dump is one snapshot (pg_dump's), taken later than the dumps before it, so whatever an
 * earlier dump refers to is in a later one: leaderboard and webhooks apply events of rules, wallet and
 * onboarding; rules holds rewards paid by the wallet; wallet and onboarding hold users and partners of
 * onboarding and identity. What a later dump has and an earlier one lacks (an event applied after the
 * consumer's snapshot) is replayed from the producer's outbox at restore.
 *
 * The rules/wallet gap: a reward paid between the two snapshots is in the wallet (coins, idempotency
 * key) but not in rules; asking for it again pays nothing new (the same wallet key) and records it.
 */
export const BACKUP_ORDER = ['leaderboard', 'webhooks', 'rules', 'wallet', 'onboarding', 'identity'] as const;

/** Every service with migrations has a database: a new one must be placed in BACKUP_ORDER. */
export function unorderedServices(root: string): string[] {
  return readdirSync(join(root, 'services'))
    .filter((s) => existsSync(join(root, 'services', s, 'src', 'migrations')))
    .filter((s) => !(BACKUP_ORDER as readonly string[]).includes(s));
}
