import { Migration } from '@coin/db';

/**
 * Requests become a queue of @coin/jobs: the lease is the job's next due time, and a request whose
 * chunks keep failing is parked with its error, to be replayed, instead of being retried forever.
 */
export class OnboardingJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE onboarding_requests RENAME COLUMN lease_until TO next_attempt_at');
    this.addSql(`
      ALTER TABLE onboarding_requests
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN last_error text,
        ADD COLUMN parked_at timestamptz`);
    this.addSql(
      "UPDATE onboarding_requests SET next_attempt_at = coalesce(next_attempt_at, now()) WHERE status = 'pending'",
    );
    this.addSql('DROP INDEX onboarding_requests_pending');
    this.addSql(
      "CREATE INDEX onboarding_requests_due ON onboarding_requests (next_attempt_at) WHERE status = 'pending' AND parked_at IS NULL",
    );
  }
}
