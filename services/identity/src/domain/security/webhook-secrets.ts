import { boundQuery, type Database } from '@coin/db';
import type { Logger } from '@coin/telemetry';
import type { KeyEncryption } from './key-encryption.ts';

/**
 * Partners' webhook signing secrets, stored encrypted under the key-encryption key as the private
 * signing keys are (key-encryption.ts), bound to their partner: a ciphertext copied to another
 * partner's row does not decrypt. `webhook_secret` held them in plain text before; a row a replica of
 * that release writes during a rolling update is read as it is, and encrypted at the next start.
 */
const LOCK = "hashtext('identity.webhook_secrets')";
const CHUNK = 500;

const context = (partnerId: string) => `webhook-secret:${partnerId}`;

export function sealWebhookSecret(kek: KeyEncryption, partnerId: string, secret: string): string {
  return kek.encrypt(secret, context(partnerId));
}

/**
 * The secret as stored (the newer of the plain-text and encrypted columns: partner-store.ts reads
 * them so) made readable: a plain-text one, written by the previous release, is taken as it is.
 */
export function openWebhookSecret(
  kek: KeyEncryption,
  partnerId: string,
  stored: string | null,
): string | null {
  if (stored === null || stored.startsWith('whsec_')) return stored;
  return kek.decrypt(stored, context(partnerId));
}

/**
 * At start, idempotently: every secret still in plain text, or under the previous key-encryption key,
 * is encrypted under the current one, in chunks, each row only if no one changed it meanwhile. One
 * that decrypts under neither key (tampered with, or under a key no longer configured) is logged and
 * left: its partner's deliveries fail until the secret is rotated, the others' go on.
 */
export async function encryptWebhookSecrets(orm: Database, kek: KeyEncryption, log: Logger) {
  return orm.em.fork().transactional(async (em) => {
    await boundQuery(em, `SELECT pg_advisory_xact_lock(${LOCK})`, []);
    let written = 0;
    let unreadable = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await boundQuery<{ partnerId: string; plain: string | null; sealed: string | null }>(
        em,
        `SELECT partner_id AS "partnerId", webhook_secret AS plain, webhook_secret_encrypted AS sealed
           FROM partners
          WHERE partner_id > $1::uuid
            AND (webhook_secret IS NOT NULL OR webhook_secret_encrypted NOT LIKE $2)
          ORDER BY partner_id LIMIT ${CHUNK}`,
        [after, `v1.${kek.keyId}.%`],
      );
      for (const row of rows) {
        let secret: string;
        try {
          secret = row.plain ?? kek.decrypt(row.sealed!, context(row.partnerId));
        } catch (err) {
          log.error({ partnerId: row.partnerId, err }, 'webhook secret unreadable: left as it is; rotate it');
          unreadable++;
          continue;
        }
        await boundQuery(
          em,
          `UPDATE partners SET webhook_secret_encrypted = $2, webhook_secret = NULL
            WHERE partner_id = $1 AND webhook_secret IS NOT DISTINCT FROM $3
              AND webhook_secret_encrypted IS NOT DISTINCT FROM $4`,
          [row.partnerId, sealWebhookSecret(kek, row.partnerId, secret), row.plain, row.sealed],
        );
        written++;
      }
      if (rows.length < CHUNK) return { written, unreadable };
      after = rows[rows.length - 1].partnerId;
    }
  });
}

/** For a rollback to a release that reads `webhook_secret` only: writes every secret back there. */
export async function decryptWebhookSecretsForRollback(orm: Database, kek: KeyEncryption): Promise<number> {
  return orm.em.fork().transactional(async (em) => {
    await boundQuery(em, `SELECT pg_advisory_xact_lock(${LOCK})`, []);
    const rows = await boundQuery<{ partnerId: string; sealed: string }>(
      em,
      `SELECT partner_id AS "partnerId", webhook_secret_encrypted AS sealed FROM partners
        WHERE webhook_secret IS NULL AND webhook_secret_encrypted IS NOT NULL`,
      [],
    );
    for (const row of rows)
      await boundQuery(em, 'UPDATE partners SET webhook_secret = $2 WHERE partner_id = $1', [
        row.partnerId,
        kek.decrypt(row.sealed, context(row.partnerId)),
      ]);
    return rows.length;
  });
}
