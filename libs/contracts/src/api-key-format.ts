import { API_KEY_PREFIX } from './auth.ts';

/**
 * A secret API key is `ck_live_` + 43 base62 characters (256 random bits) + `_` + a 6-character
 * base62 CRC-32 of what precedes it, so a mistyped, truncated or made-up key is refused where it
 * arrives, without asking identity. Keys made before the checksum (`ck_live_` + 43 base64url
 * characters, 51 in all) keep working: their length tells them apart.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_CHARS = 43;
const CHECKSUM_CHARS = 6;

const CHECKED = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_CHARS}}_[0-9A-Za-z]{${CHECKSUM_CHARS}}$`);
const LEGACY = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (IEEE) of an ASCII string; pure, so the browser's SDK can check a key too. */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: bigint, width: number): string {
  let out = '';
  for (let v = value; out.length < width; v /= 62n) out = BASE62[Number(v % 62n)] + out;
  return out;
}

function checksumOf(head: string): string {
  return base62(BigInt(crc32(head)), CHECKSUM_CHARS);
}

/** A new key from 32 random bytes (the caller's CSPRNG). */
export function formatApiKey(random: Uint8Array): string {
  if (random.length !== 32) throw new Error('an API key takes 32 random bytes');
  const value = random.reduce((acc, byte) => (acc << 8n) | BigInt(byte), 0n);
  // 62^43 > 2^256, so every 256-bit value fits in 43 characters.
  const head = `${API_KEY_PREFIX}${base62(value, SECRET_CHARS)}`;
  return `${head}_${checksumOf(head)}`;
}

/**
 * Whether `key` can be a key identity issued: the checked form with a matching checksum, or the
 * form of the keys made before it. Anything else is refused without a lookup.
 */
export function isWellFormedApiKey(key: string): boolean {
  if (LEGACY.test(key)) return true;
  if (!CHECKED.test(key)) return false;
  const head = key.slice(0, -(CHECKSUM_CHARS + 1));
  return key.slice(-CHECKSUM_CHARS) === checksumOf(head);
}
