import { Migration } from '@coin/db';
import { dueJobsIndex, mirroredColumn } from '@coin/jobs';

/**
 * Requests become a queue of @coin/jobs: the lease is the job's next due time, and a request whose
 * chunks keep failing is parked with its error, to be replayed, instead of being retried forever.
 * Expand only: `next_attempt_at` is added beside 1.0.0's `lease_until`, and a trigger keeps the two
 * equal whichever release wrote, so 1.0.0 and current replicas honour each other's leases (rolling
 * update, rollback). `lease_until` and the trigger go one release later.
 */
export class OnboardingJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE onboarding_requests
        ADD COLUMN next_attempt_at timestamptz,
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN last_error text,
        ADD COLUMN parked_at timestamptz`);
    for (const sql of mirroredColumn({
      table: 'onboarding_requests',
      fn: 'onboarding_requests_lease_sync',
      column: 'next_attempt_at',
      legacy: 'lease_until',
    }))
      this.addSql(sql);
    this.addSql(
      "UPDATE onboarding_requests SET next_attempt_at = CASE WHEN status = 'pending' THEN coalesce(lease_until, now()) ELSE lease_until END",
    );
    this.addSql(
      dueJobsIndex({
        index: 'onboarding_requests_due',
        table: 'onboarding_requests',
        pending: "status = 'pending'",
      }),
    );
  }
}
