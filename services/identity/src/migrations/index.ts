import { parkedJobsIndexMigration } from '@coin/jobs';
import { PartnersAndTokens } from './0001-partners-and-tokens.ts';
import { AccountUsers } from './0002-account-users.ts';
import { OnePartnerId } from './0003-one-partner-id.ts';
import { MailJobs } from './0004-mail-jobs.ts';
import { LoginLockLevel } from './0005-login-lock-level.ts';
import { SigningKeyRotation } from './0006-signing-key-rotation.ts';
import { WebhookEvents } from './0007-webhook-events.ts';

export const identityMigrations = [
  { name: '0001-partners-and-tokens', class: PartnersAndTokens },
  { name: '0002-account-users', class: AccountUsers },
  { name: '0003-one-partner-id', class: OnePartnerId },
  { name: '0004-mail-jobs', class: MailJobs },
  { name: '0005-login-lock-level', class: LoginLockLevel },
  { name: '0006-signing-key-rotation', class: SigningKeyRotation },
  { name: '0007-webhook-events', class: WebhookEvents },
  {
    name: '0008-parked-mail-index',
    class: parkedJobsIndexMigration({ index: 'mail_outbox_parked', table: 'mail_outbox' }),
  },
];
