import type { NatsConnection } from '@coin/bus';
import type { Database } from '@coin/db';
import type { IdentityConfig } from './config.ts';
import type { MailRelay } from './domain/mail/mail-relay.ts';
import type { KeyEncryption } from './domain/security/key-encryption.ts';
import type { TokenSigner } from './domain/security/token-signer.ts';

export interface IdentityDeps {
  db: Database;
  nc: NatsConnection;
  config: IdentityConfig;
  signer: TokenSigner;
  mail: MailRelay;
  /** Encrypts the webhook signing secrets at rest (domain/security/webhook-secrets.ts). */
  kek: KeyEncryption;
}
