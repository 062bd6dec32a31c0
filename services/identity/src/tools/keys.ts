/**
 * `npm run keys:rotate -w @coin/identity [-- --overlap-seconds N]` activates a new signing key and
 * keeps the previous one verifying for N seconds (SIGNING_KEY_OVERLAP_SECONDS by default);
 * `npm run keys:list -w @coin/identity` lists the keys and their state;
 * `npm run keys:decrypt-for-rollback -w @coin/identity` writes the private keys back in plain
 * text (for release 1.0.0 only) and the webhook secrets (for a release before their encryption), as
 * CHANGELOG.md says. See docs/operating/security.md, "Signing keys".
 */
import { parseArgs } from 'node:util';
import { runCommand } from '@coin/startup';
import { identityConfig } from '../config.ts';
import { configuredKeyEncryption } from '../domain/security/key-encryption.ts';
import {
  decryptForRollback,
  keyStatuses,
  prepareSigningKeys,
  rotateSigningKey,
} from '../domain/security/signing-keys.ts';
import { decryptWebhookSecretsForRollback } from '../domain/security/webhook-secrets.ts';
import { identityMigrations } from '../migrations/index.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'overlap-seconds': { type: 'string' } },
});
const config = identityConfig(process.env);

await runCommand('identity-keys', config, async ({ database, log }) => {
  const [command] = positionals;
  if (command !== 'rotate' && command !== 'list' && command !== 'decrypt-for-rollback') {
    console.error('usage: keys.ts rotate [--overlap-seconds N] | list | decrypt-for-rollback');
    return 2;
  }
  const overlap = Number(values['overlap-seconds'] ?? config.SIGNING_KEY_OVERLAP_SECONDS);
  if (!Number.isInteger(overlap) || overlap < 0) {
    console.error('--overlap-seconds must be a whole number of seconds, at least 0');
    return 2;
  }
  const db = await database({ migrations: identityMigrations });
  const kek = configuredKeyEncryption(config, (message) => log.warn(message));
  if (command === 'decrypt-for-rollback') {
    const written = await decryptForRollback(db, kek);
    const secrets = await decryptWebhookSecretsForRollback(db, kek);
    console.log(
      `${written} private keys and ${secrets} webhook secrets written in plain text for the previous release; start its identity now`,
    );
    return 0;
  }
  if (command === 'rotate') {
    await prepareSigningKeys(db, kek, overlap);
    const { kid, retired } = await rotateSigningKey(db, kek, overlap);
    console.log(`active signing key: ${kid}`);
    for (const r of retired) console.log(`retired ${r.kid}: its tokens verify until ${r.verifyUntil}`);
    if (overlap < config.ACCESS_TOKEN_TTL_SECONDS)
      console.log(
        `note: the overlap (${overlap} s) is shorter than ACCESS_TOKEN_TTL_SECONDS (${config.ACCESS_TOKEN_TTL_SECONDS} s): some tokens stop working before they expire`,
      );
  }
  for (const k of await keyStatuses(db.em.fork()))
    console.log(
      `${k.kid}  ${k.state.padEnd(9)}  activated ${k.activatedAt ?? '-'}  retired ${k.retiredAt ?? '-'}  verifies until ${k.verifyUntil ?? (k.state === 'active' ? 'rotated' : '-')}`,
    );
  return 0;
});
