import { boundQuery, boundRow, type EntityManager, insertUnique } from '@coin/db';
import { AppError } from '@coin/errors';

export interface AccountUserRecord {
  id: string;
  fullname: string;
  tag: string;
  email: string;
  phone: string;
  countryCode: string;
  isAdult: boolean;
  /** `YYYY-MM-DD`. */
  dateOfBirth: string;
  /** Timestamps: Postgres text. */
  emailVerifiedAt: string | null;
  emailCodeHash: string | null;
  emailCodeExpiresAt: string | null;
  emailCodeAttempts: number;
  emailCodeSentAt: string | null;
  /** Codes mailed in the rolling day that began at emailCodesWindowStartedAt. */
  emailCodesSent: number;
  emailCodesWindowStartedAt: string | null;
  createdAt: string;
}

/** A sign-up whose e-mail already has an account: answered as if it were new (nothing is stored). */
export class EmailTaken extends Error {}

export type NewAccountUser = Pick<
  AccountUserRecord,
  'id' | 'fullname' | 'tag' | 'email' | 'phone' | 'countryCode' | 'isAdult' | 'dateOfBirth'
> & { passwordHash: string };

const COLUMNS = `id, fullname, tag, email, phone, country_code AS "countryCode", is_adult AS "isAdult",
  date_of_birth::text AS "dateOfBirth", email_verified_at AS "emailVerifiedAt", email_code_hash AS "emailCodeHash",
  email_code_expires_at AS "emailCodeExpiresAt", email_code_attempts AS "emailCodeAttempts",
  email_code_sent_at AS "emailCodeSentAt", email_codes_sent AS "emailCodesSent",
  email_codes_window_started_at AS "emailCodesWindowStartedAt", created_at AS "createdAt"`;

/** The unique indexes decide, so that of concurrent sign-ups with one tag exactly one commits. */
export async function insertAccountUser(em: EntityManager, u: NewAccountUser): Promise<AccountUserRecord> {
  return insertUnique<AccountUserRecord>(
    em,
    `INSERT INTO account_users (id, fullname, tag, email, password_hash, phone, country_code, is_adult, date_of_birth)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [u.id, u.fullname, u.tag, u.email, u.passwordHash, u.phone, u.countryCode, u.isAdult, u.dateOfBirth],
    (constraint) =>
      constraint === 'account_users_tag_key' ? AppError.conflict('Tag Already Taken', '') : new EmailTaken(),
  );
}

/** The account user with this e-mail, its row locked until the caller's transaction ends. */
export async function lockAccountUser(
  tx: EntityManager,
  email: string,
): Promise<AccountUserRecord | undefined> {
  return boundRow<AccountUserRecord>(tx, `SELECT ${COLUMNS} FROM account_users WHERE email = $1 FOR UPDATE`, [
    email,
  ]);
}

/** Stores a fresh code's hash (the previous one stops working, attempts start over). */
export async function setEmailCode(
  em: EntityManager,
  id: string,
  code: { hash: string; sentAt: Date; expiresAt: Date },
): Promise<AccountUserRecord> {
  const [row] = await boundQuery<AccountUserRecord>(
    em,
    `UPDATE account_users SET email_code_hash = $2, email_code_sent_at = $3, email_code_expires_at = $4,
            email_code_attempts = 0, updated_at = now(),
            email_codes_sent = CASE WHEN email_codes_window_started_at > now() - interval '1 day'
                                    THEN email_codes_sent + 1 ELSE 1 END,
            email_codes_window_started_at = CASE WHEN email_codes_window_started_at > now() - interval '1 day'
                                    THEN email_codes_window_started_at ELSE now() END
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, code.hash, code.sentAt, code.expiresAt],
  );
  return row;
}

/** Counts one wrong code; returns the attempts made with the current code. */
export async function countWrongCode(em: EntityManager, id: string): Promise<number> {
  const [row] = await boundQuery<{ attempts: number }>(
    em,
    `UPDATE account_users SET email_code_attempts = email_code_attempts + 1, updated_at = now()
      WHERE id = $1 RETURNING email_code_attempts AS attempts`,
    [id],
  );
  return row.attempts;
}

export async function markEmailVerified(em: EntityManager, id: string): Promise<AccountUserRecord> {
  const [row] = await boundQuery<AccountUserRecord>(
    em,
    `UPDATE account_users SET email_verified_at = now(), email_code_hash = NULL, email_code_expires_at = NULL,
            updated_at = now()
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return row;
}
