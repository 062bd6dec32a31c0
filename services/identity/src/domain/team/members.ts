import { randomUUID } from 'node:crypto';
import type { team } from '@coin/contracts';
import { boundQuery, boundRow, type EntityManager, insertUnique } from '@coin/db';
import { AppError } from '@coin/errors';

export interface MemberRecord {
  id: string;
  partnerId: string;
  email: string;
  passwordHash: string;
  role: team.MemberRole;
  /** Postgres text; see isoTime. */
  createdAt: string;
}

const COLUMNS = `id, partner_id AS "partnerId", email, password_hash AS "passwordHash", role, created_at AS "createdAt"`;

/** The e-mail's unique index decides: one login per e-mail across every partner. */
export async function insertMember(
  em: EntityManager,
  m: { partnerId: string; email: string; passwordHash: string; role: team.MemberRole },
): Promise<MemberRecord> {
  return insertUnique<MemberRecord>(
    em,
    `INSERT INTO members (id, partner_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${COLUMNS}`,
    [randomUUID(), m.partnerId, m.email, m.passwordHash, m.role],
    () => AppError.conflict('a member with this email already exists'),
  );
}

/**
 * The member who logs in with this e-mail. A partner registered by the previous release during a
 * rolling update has no member yet: its owner is made here from the partner's own login, once.
 */
export async function findMemberByEmail(em: EntityManager, email: string): Promise<MemberRecord | undefined> {
  const member = await boundRow<MemberRecord>(em, `SELECT ${COLUMNS} FROM members WHERE email = $1`, [email]);
  if (member) return member;
  return boundRow<MemberRecord>(
    em,
    `INSERT INTO members (id, partner_id, email, password_hash, role, created_at)
     SELECT $2, p.partner_id, p.email, p.password_hash, 'owner', p.created_at FROM partners p
      WHERE p.email = $1 AND NOT EXISTS (SELECT 1 FROM members m WHERE m.partner_id = p.partner_id)
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [email, randomUUID()],
  );
}

/**
 * A session's member: by id, or (a refresh token from before teams, which names none) the partner's
 * member with the partner's own e-mail, its owner at the migration.
 */
export async function findSessionMember(
  em: EntityManager,
  partnerId: string,
  memberId: string | null,
): Promise<MemberRecord | undefined> {
  return memberId
    ? boundRow<MemberRecord>(em, `SELECT ${COLUMNS} FROM members WHERE id = $1 AND partner_id = $2`, [
        memberId,
        partnerId,
      ])
    : boundRow<MemberRecord>(
        em,
        `SELECT ${COLUMNS} FROM members
          WHERE partner_id = $1 AND email = (SELECT email FROM partners WHERE partner_id = $1)`,
        [partnerId],
      );
}

export async function listMembers(em: EntityManager, partnerId: string): Promise<MemberRecord[]> {
  return boundQuery<MemberRecord>(
    em,
    `SELECT ${COLUMNS} FROM members WHERE partner_id = $1 ORDER BY created_at, id`,
    [partnerId],
  );
}

/**
 * The partner's members, locked in the caller's transaction: a change of role or a removal is
 * decided with every owner row held, so two owners demoting each other at once cannot leave none.
 */
export async function lockMembers(tx: EntityManager, partnerId: string): Promise<MemberRecord[]> {
  return boundQuery<MemberRecord>(
    tx,
    `SELECT ${COLUMNS} FROM members WHERE partner_id = $1 ORDER BY id FOR UPDATE`,
    [partnerId],
  );
}

export async function setMemberRole(
  tx: EntityManager,
  id: string,
  role: team.MemberRole,
): Promise<MemberRecord> {
  const row = await boundRow<MemberRecord>(
    tx,
    `UPDATE members SET role = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, role],
  );
  return row!;
}

/** Removes a member and ends their sessions (their refresh tokens; access tokens expire on their own). */
export async function deleteMember(tx: EntityManager, id: string): Promise<void> {
  await boundQuery(tx, 'DELETE FROM members WHERE id = $1', [id]);
  await boundQuery(
    tx,
    'UPDATE refresh_tokens SET revoked_at = now() WHERE member_id = $1 AND revoked_at IS NULL',
    [id],
  );
}

/**
 * Sets a member's password hash; the partner's own row too when the member holds the partner's
 * e-mail (the previous release still logs in from it during a rolling update).
 */
export async function setMemberPassword(
  tx: EntityManager,
  m: MemberRecord,
  passwordHash: string,
): Promise<void> {
  await boundQuery(tx, 'UPDATE members SET password_hash = $2, updated_at = now() WHERE id = $1', [
    m.id,
    passwordHash,
  ]);
  await boundQuery(tx, 'UPDATE partners SET password_hash = $3 WHERE partner_id = $1 AND email = $2', [
    m.partnerId,
    m.email,
    passwordHash,
  ]);
}

export async function findMemberById(em: EntityManager, id: string): Promise<MemberRecord | undefined> {
  return boundRow<MemberRecord>(em, `SELECT ${COLUMNS} FROM members WHERE id = $1`, [id]);
}
