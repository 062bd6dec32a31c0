import { Migration } from '@coin/db';

/** The mail outbox becomes a queue of @coin/jobs: a mail given up is parked, to be replayed. */
export class MailJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE mail_outbox RENAME COLUMN failed_at TO parked_at');
    this.addSql('DROP INDEX mail_outbox_due');
    this.addSql(
      'CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND parked_at IS NULL',
    );
  }
}
