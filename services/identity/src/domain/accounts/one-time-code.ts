import { randomInt } from 'node:crypto';
import { hashPassword, verifyPassword } from '../security/passwords.ts';

/** Six random digits. */
export function newOneTimeCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

// A six-digit code has a million values: a fast hash would be reversed from a leaked row at once,
// so codes are hashed like passwords (argon2id).
export const hashOneTimeCode = hashPassword;
export const verifyOneTimeCode = verifyPassword;
