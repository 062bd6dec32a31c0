import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The key-encryption key of development mode only: public (it is in docs/operating/security.md), so anything it
 * encrypts is as good as plain text. Production refuses to start without KEY_ENCRYPTION_KEY.
 */
export const DEVELOPMENT_KEY_ENCRYPTION_KEY = 'aW5zZWN1cmUtZGV2ZWxvcG1lbnQtb25seS1rZXktMzI=';

const FORMAT = 'v1';

/** 32 bytes, base64 (`openssl rand -base64 32`); undefined when the setting is absent. */
export function parseKeyEncryptionKey(value: string): Buffer | undefined {
  const key = Buffer.from(value, 'base64');
  return key.length === 32 && key.toString('base64') === value.trim() ? key : undefined;
}

/** Names a key-encryption key without revealing it, so a ciphertext says which key it needs. */
function fingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

export interface KeyEncryption {
  /** The current key's fingerprint, which every ciphertext under it carries (`v1.<keyId>.…`). */
  keyId: string;
  /** AES-256-GCM under the current key; `context` (what it is, e.g. the key id) is authenticated with it. */
  encrypt(plain: string, context: string): string;
  decrypt(sealed: string, context: string): string;
  /** Whether `sealed` is under the current key (one under the previous key is re-encrypted). */
  isCurrent(sealed: string): boolean;
}

/**
 * Private signing keys and webhook signing secrets are kept encrypted at rest with a key that lives
 * outside the database (the environment, from a secret). `previous` still decrypts during a rotation
 * of that key.
 */
export function keyEncryption(current: Buffer, previous?: Buffer): KeyEncryption {
  const keys = new Map([[fingerprint(current), current]]);
  if (previous) keys.set(fingerprint(previous), previous);
  const currentId = fingerprint(current);
  return {
    keyId: currentId,
    encrypt(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [FORMAT, currentId, iv, body, cipher.getAuthTag()]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(sealed, context) {
      const [format, keyId, iv, body, tag] = sealed.split('.');
      if (format !== FORMAT) throw new Error(`the secret ${context}: unknown encryption format ${format}`);
      const key = keys.get(keyId);
      if (!key)
        throw new Error(
          `the secret ${context} is encrypted under key-encryption key ${keyId}, which is neither KEY_ENCRYPTION_KEY nor KEY_ENCRYPTION_KEY_PREVIOUS`,
        );
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
    isCurrent: (sealed) => sealed.split('.')[1] === currentId,
  };
}

/**
 * The configured key-encryption keys; without KEY_ENCRYPTION_KEY (development mode only: production
 * refuses to start) the public development key, with a warning.
 */
export function configuredKeyEncryption(
  config: { KEY_ENCRYPTION_KEY?: Buffer; KEY_ENCRYPTION_KEY_PREVIOUS?: Buffer },
  warn: (message: string) => void,
): KeyEncryption {
  if (config.KEY_ENCRYPTION_KEY)
    return keyEncryption(config.KEY_ENCRYPTION_KEY, config.KEY_ENCRYPTION_KEY_PREVIOUS);
  warn(
    'KEY_ENCRYPTION_KEY is not set: private signing keys and webhook secrets are encrypted with the public development key (never do this with real partners)',
  );
  return keyEncryption(
    parseKeyEncryptionKey(DEVELOPMENT_KEY_ENCRYPTION_KEY)!,
    config.KEY_ENCRYPTION_KEY_PREVIOUS,
  );
}
