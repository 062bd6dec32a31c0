import { randomUUID } from 'node:crypto';
import type { Actor, team } from '@coin/contracts';
import { boundQuery, type EntityManager, isoTime } from '@coin/db';

/** A change to record: who (the request's actor), from where, which operation, and what changed. */
export interface AuditChange {
  partnerId: string;
  actor: Actor | undefined;
  clientIp: string | undefined;
  action: string;
  summary: string;
  details?: Record<string, unknown>;
  /** Another service's event id: a redelivered event records nothing twice. */
  id?: string;
  /** When the change was made, if not now (an event's own time). */
  at?: string;
}

/**
 * Appends an entry in the caller's transaction (a member named by id alone is named by e-mail too), so the change and its entry commit together. The
 * table takes no UPDATE or DELETE from this service's role (migration 0014).
 */
export async function recordAudit(em: EntityManager, c: AuditChange): Promise<void> {
  await boundQuery(
    em,
    `INSERT INTO audit_log (id, partner_id, at, actor_member_id, actor_email, actor_api_key_id, client_ip,
       action, summary, details)
     VALUES ($1, $2, COALESCE($3::timestamptz, now()), $4,
       COALESCE($5, (SELECT email FROM members WHERE id = $4)), $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
    [
      c.id ?? randomUUID(),
      c.partnerId,
      c.at ?? null,
      c.actor?.memberId ?? null,
      c.actor?.email ?? null,
      c.actor?.apiKeyId ?? null,
      c.clientIp ?? null,
      c.action,
      c.summary,
      JSON.stringify(c.details ?? {}),
    ],
  );
}

interface AuditRow {
  id: string;
  seq: string;
  at: string;
  memberId: string | null;
  email: string | null;
  apiKeyId: string | null;
  clientIp: string | null;
  action: string;
  summary: string;
  details: Record<string, unknown>;
}

type AuditQuery = Pick<team.ListAuditLogQuery, 'actor' | 'action' | 'from' | 'to' | 'limit' | 'cursor'>;

/** Newest first; `cursor` is the last entry's position of the previous page (its `seq`). */
export async function auditPage(em: EntityManager, partnerId: string, q: AuditQuery) {
  const rows = await boundQuery<AuditRow>(
    em,
    `SELECT id, seq::text, at, actor_member_id AS "memberId", actor_email AS email,
            actor_api_key_id AS "apiKeyId", client_ip AS "clientIp", action, summary, details
       FROM audit_log
      WHERE partner_id = $1
        AND ($2::uuid IS NULL OR actor_member_id = $2 OR actor_api_key_id = $2)
        AND ($3::text IS NULL OR action = $3)
        AND ($4::timestamptz IS NULL OR at >= $4)
        AND ($5::timestamptz IS NULL OR at < $5)
        AND ($6::bigint IS NULL OR seq < $6)
      ORDER BY audit_log.seq DESC LIMIT $7`,
    [
      partnerId,
      q.actor ?? null,
      q.action ?? null,
      q.from ?? null,
      q.to ?? null,
      q.cursor ?? null,
      q.limit + 1,
    ],
  );
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((r) => ({
      id: r.id,
      at: isoTime(r.at),
      actor: { memberId: r.memberId, email: r.email, apiKeyId: r.apiKeyId },
      clientIp: r.clientIp,
      action: r.action,
      summary: r.summary,
      details: r.details,
    })),
    nextCursor: rows.length > q.limit ? page[page.length - 1].seq : null,
  };
}
