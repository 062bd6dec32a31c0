import { Migration } from '@coin/db';

export class Standings extends Migration {
  override async up(): Promise<void> {
    // One row per (partner, board, user): board is `coins:YYYY-MM` (UTC month) or `points`.
    // reached_at is when the amount reached its current value (ms precision, like the Redis index).
    this.addSql(`
      CREATE TABLE standings (
        partner_id uuid NOT NULL,
        board text NOT NULL,
        user_id uuid NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        amount numeric(24, 2) NOT NULL,
        reached_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (partner_id, board, user_id)
      )`);
    this.addSql(
      'CREATE INDEX standings_rank ON standings (partner_id, board, amount DESC, reached_at, user_id)',
    );
    // The stored users of onboarding, projected from its usersOnboarded events.
    this.addSql(`
      CREATE TABLE users (
        partner_id uuid NOT NULL,
        user_id uuid NOT NULL,
        id uuid NOT NULL,
        user_data jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (partner_id, user_id)
      )`);
  }
}
