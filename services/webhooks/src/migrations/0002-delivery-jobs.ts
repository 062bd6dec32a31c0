import { Migration } from '@coin/db';
import { beforeWriteTrigger, dueJobsIndex } from '@coin/jobs';

/**
 * Deliveries become a queue of @coin/jobs: a failed delivery is a parked job (kept with its error,
 * replayable), and the attempt bound is the queue's, so the per-row bound is no longer written.
 * Expand only: `max_attempts` stays for 1.0.0 replicas (defaulted to 1.0.0's bound, the default
 * retry schedule's length, for the rows the current code inserts), and a trigger parks the rows
 * 1.0.0 marks failed and unparks the ones its retry makes pending again. Both go one release later.
 */
export class DeliveryJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE deliveries ALTER COLUMN max_attempts SET DEFAULT 8');
    this.addSql('ALTER TABLE deliveries ADD COLUMN parked_at timestamptz');
    this.addSql("UPDATE deliveries SET parked_at = updated_at WHERE status = 'failed'");
    this.addSql(`
      CREATE FUNCTION deliveries_parked_when_failed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.parked_at := CASE WHEN NEW.status = 'failed' THEN coalesce(NEW.parked_at, now()) END;
        RETURN NEW;
      END $$`);
    this.addSql(beforeWriteTrigger('deliveries', 'deliveries_parked_when_failed'));
    this.addSql(
      dueJobsIndex({ index: 'deliveries_due_jobs', table: 'deliveries', pending: "status = 'pending'" }),
    );
  }
}
