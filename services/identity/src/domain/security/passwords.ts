import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(argon2);

// One of the argon2id configurations OWASP lists as equally strong (memory × passes about the same):
// 7 MiB and 5 passes, not 19 MiB and 2, so the hashes libuv's pool runs at once keep identity within
// its memory budget (docs/decisions/2026-11-24-argon2-parameters.md). A stored hash names its own
// parameters: those made with 19 MiB still verify.
const PARAMS = { memory: 7_168, passes: 5, parallelism: 1, tagLength: 32 };

async function hashWith(password: string, nonce: Buffer, p = PARAMS): Promise<Buffer> {
  return derive('argon2id', { message: password, nonce, ...p });
}

/** PHC string: `$argon2id$v=19$m=7168,t=5,p=1$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await hashWith(password, salt);
  return `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5], 'base64url');
  const actual = await hashWith(password, Buffer.from(m[4], 'base64url'), {
    memory: Number(m[1]),
    passes: Number(m[2]),
    parallelism: Number(m[3]),
    tagLength: expected.length,
  });
  return timingSafeEqual(actual, expected);
}

/** A hash to verify against when the account does not exist, so timing does not reveal it. */
export const DUMMY_HASH = await hashPassword(randomBytes(16).toString('hex'));
