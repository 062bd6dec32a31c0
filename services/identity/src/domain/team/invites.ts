import { randomUUID } from 'node:crypto';
import type { team } from '@coin/contracts';
import { boundQuery, boundRow, type EntityManager } from '@coin/db';
import { randomToken, sha256 } from '../security/secrets.ts';

export interface InviteRecord {
  id: string;
  partnerId: string;
  email: string;
  role: team.MemberRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

const COLUMNS = `id, partner_id AS "partnerId", email, role, invited_by AS "invitedBy",
  created_at AS "createdAt", expires_at AS "expiresAt"`;
const OPEN = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()';

/**
 * A new invitation; an open one for the same e-mail is revoked, so only the latest link works. The
 * token leaves here once (in the link) and is kept only as its hash.
 */
export async function createInvite(
  tx: EntityManager,
  i: { partnerId: string; email: string; role: team.MemberRole; invitedBy: string | null; ttlHours: number },
): Promise<{ invite: InviteRecord; token: string }> {
  await boundQuery(
    tx,
    `UPDATE member_invites SET revoked_at = now() WHERE partner_id = $1 AND email = $2 AND ${OPEN}`,
    [i.partnerId, i.email],
  );
  const token = randomToken(32);
  const invite = await boundRow<InviteRecord>(
    tx,
    `INSERT INTO member_invites (id, partner_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(hours => $7)) RETURNING ${COLUMNS}`,
    [randomUUID(), i.partnerId, i.email, i.role, sha256(token), i.invitedBy, i.ttlHours],
  );
  return { invite: invite!, token };
}

export async function listOpenInvites(em: EntityManager, partnerId: string): Promise<InviteRecord[]> {
  return boundQuery<InviteRecord>(
    em,
    `SELECT ${COLUMNS} FROM member_invites WHERE partner_id = $1 AND ${OPEN} ORDER BY created_at DESC, id`,
    [partnerId],
  );
}

export async function revokeInvite(em: EntityManager, partnerId: string, id: string) {
  return boundRow<InviteRecord>(
    em,
    `UPDATE member_invites SET revoked_at = now() WHERE id = $1 AND partner_id = $2 AND ${OPEN}
     RETURNING ${COLUMNS}`,
    [id, partnerId],
  );
}

/**
 * Spends an open invitation by a conditional update, so a link works once however many use it at
 * the same time. Undefined when it is unknown, spent, revoked or expired.
 */
export async function spendInvite(tx: EntityManager, token: string): Promise<InviteRecord | undefined> {
  return boundRow<InviteRecord>(
    tx,
    `UPDATE member_invites SET accepted_at = now() WHERE token_hash = $1 AND ${OPEN} RETURNING ${COLUMNS}`,
    [sha256(token)],
  );
}
