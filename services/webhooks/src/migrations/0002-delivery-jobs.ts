import { Migration } from '@coin/db';

/**
 * Deliveries become a queue of @coin/jobs: a failed delivery is a parked job (kept with its error,
 * replayable), and the attempt bound is the queue's, so the per-row bound goes.
 */
export class DeliveryJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE deliveries ADD COLUMN parked_at timestamptz');
    this.addSql("UPDATE deliveries SET parked_at = updated_at WHERE status = 'failed'");
    this.addSql('ALTER TABLE deliveries DROP COLUMN max_attempts');
    this.addSql('DROP INDEX deliveries_due');
    this.addSql(
      "CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending' AND parked_at IS NULL",
    );
  }
}
