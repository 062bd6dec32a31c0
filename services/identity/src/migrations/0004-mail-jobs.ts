import { Migration } from '@coin/db';
import { dueJobsIndex, mirroredColumn } from '@coin/jobs';

/**
 * The mail outbox becomes a queue of @coin/jobs: a mail given up is parked, to be replayed.
 * Expand only: `parked_at` is added beside 1.0.0's `failed_at`, and a trigger keeps the two equal
 * whichever release wrote, so 1.0.0 replicas (during the rolling update, or after a rollback) skip
 * parked mails and a mail 1.0.0 gave up stays parked. `failed_at` and the trigger go one release later.
 */
export class MailJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE mail_outbox ADD COLUMN parked_at timestamptz');
    this.addSql('UPDATE mail_outbox SET parked_at = failed_at WHERE failed_at IS NOT NULL');
    for (const sql of mirroredColumn({
      table: 'mail_outbox',
      fn: 'mail_outbox_parked_as_failed',
      column: 'parked_at',
      legacy: 'failed_at',
    }))
      this.addSql(sql);
    this.addSql(
      dueJobsIndex({ index: 'mail_outbox_due_jobs', table: 'mail_outbox', pending: 'sent_at IS NULL' }),
    );
  }
}
