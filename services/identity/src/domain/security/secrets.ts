import { createHash, randomBytes } from 'node:crypto';
import { formatApiKey } from '@coin/contracts';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** `ck_live_…_<checksum>` (libs/contracts/src/api-key-format.ts). */
export function newApiKey(): string {
  return formatApiKey(randomBytes(32));
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function newClientId(): string {
  return randomBytes(32).toString('hex');
}
