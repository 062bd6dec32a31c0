import { webhooks } from '@coin/contracts';
import { boundRow, type EntityManager, insertUnique } from '@coin/db';
import { AppError } from '@coin/errors';

export interface PartnerRecord {
  id: string;
  partnerId: string;
  applicationName: string;
  clientId: string;
  redirectUrl: string;
  webRedirectUrl: string;
  mobileRedirectUrl: string;
  email: string;
  partnerName: string;
  userDetailsUrl: string;
  passwordHash: string;
  webhookUrl: string | null;
  /** As stored: encrypted, or in plain text from the previous release (security/webhook-secrets.ts). */
  webhookSecret: string | null;
  /** The event kinds sent; null: every kind. */
  webhookEvents: webhooks.EventKind[] | null;
  /** Postgres text; see isoTime. */
  createdAt: string;
}

export type NewPartner = Omit<PartnerRecord, 'createdAt' | 'webhookEvents'>;

/** The newer of the two: a plain-text secret is one the previous release wrote during a rolling update. */
const STORED_SECRET = 'COALESCE(webhook_secret, webhook_secret_encrypted)';

const COLUMNS = `id, partner_id AS "partnerId", application_name AS "applicationName", client_id AS "clientId",
  redirect_url AS "redirectUrl", web_redirect_url AS "webRedirectUrl", mobile_redirect_url AS "mobileRedirectUrl",
  email, partner_name AS "partnerName", user_details_url AS "userDetailsUrl", password_hash AS "passwordHash",
  webhook_url AS "webhookUrl", ${STORED_SECRET} AS "webhookSecret",
  webhook_events AS "webhookEvents", created_at AS "createdAt"`;

/** The e-mail's unique index decides between concurrent sign-ups: the loser gets 409 DUPLICATE. */
export async function insertPartner(em: EntityManager, p: NewPartner): Promise<PartnerRecord> {
  return insertUnique<PartnerRecord>(
    em,
    `INSERT INTO partners (id, partner_id, application_name, client_id, redirect_url, web_redirect_url,
       mobile_redirect_url, email, partner_name, user_details_url, password_hash, webhook_url, webhook_secret_encrypted)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${COLUMNS}`,
    [
      p.id,
      p.partnerId,
      p.applicationName,
      p.clientId,
      p.redirectUrl,
      p.webRedirectUrl,
      p.mobileRedirectUrl,
      p.email,
      p.partnerName,
      p.userDetailsUrl,
      p.passwordHash,
      p.webhookUrl,
      p.webhookSecret,
    ],
    () => AppError.conflict('a partner with this email already exists'),
  );
}

export async function findPartner(em: EntityManager, partnerId: string): Promise<PartnerRecord | undefined> {
  return boundRow<PartnerRecord>(em, `SELECT ${COLUMNS} FROM partners WHERE partner_id = $1`, [partnerId]);
}

/** The kinds a partner receives, every kind when it named none. */
export function subscribedKinds(events: webhooks.EventKind[] | null): webhooks.EventKind[] {
  return events ?? [...webhooks.EVENT_KINDS];
}

/**
 * Sets the webhook URL and the event kinds sent to it (null: every kind); the signing secret is
 * kept unless there is none yet or `newSecret` (encrypted) replaces it. Returns the URL, the secret
 * as stored and the kinds in force, or undefined for an unknown partner.
 */
export async function setWebhook(
  em: EntityManager,
  partnerId: string,
  target: { url: string; events: webhooks.EventKind[] | null },
  newSecret: string,
  rotate: boolean,
): Promise<{ url: string; secret: string; events: webhooks.EventKind[] } | undefined> {
  const row = await boundRow<{ url: string; secret: string; events: webhooks.EventKind[] | null }>(
    em,
    `UPDATE partners
        SET webhook_url = $2,
            webhook_secret_encrypted = CASE WHEN ${STORED_SECRET} IS NULL OR $4 THEN $3
                                            ELSE webhook_secret_encrypted END,
            webhook_secret = CASE WHEN $4 THEN NULL ELSE webhook_secret END,
            webhook_events = $5::text[],
            updated_at = now()
      WHERE partner_id = $1 RETURNING webhook_url AS url, ${STORED_SECRET} AS secret, webhook_events AS events`,
    [partnerId, target.url, newSecret, rotate, target.events],
  );
  return row && { ...row, events: subscribedKinds(row.events) };
}

/** Replaces the signing secret (sealed); false when the partner does not exist. */
export async function replaceWebhookSecret(
  em: EntityManager,
  partnerId: string,
  sealed: string,
): Promise<boolean> {
  const row = await boundRow<{ partnerId: string }>(
    em,
    `UPDATE partners SET webhook_secret_encrypted = $2, webhook_secret = NULL, updated_at = now()
      WHERE partner_id = $1 RETURNING partner_id AS "partnerId"`,
    [partnerId, sealed],
  );
  return row !== undefined;
}
