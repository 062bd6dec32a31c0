import { Migration } from '@coin/db';
import { dueJobsIndex } from '@coin/jobs';

/** Pending rewards become a queue of @coin/jobs: a payment that keeps failing is parked, to be replayed. */
export class RewardJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE participations ADD COLUMN last_error text, ADD COLUMN parked_at timestamptz');
    this.addSql('DROP INDEX participations_due');
    this.addSql(
      dueJobsIndex({ index: 'participations_due', table: 'participations', pending: "status = 'pending'" }),
    );
  }
}
