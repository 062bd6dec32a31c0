import { Migration } from '@coin/db';

/**
 * A partner's redelivery of a pending delivery is an extra attempt: `resume_at` keeps the automatic
 * schedule it interrupts (due again then if the extra attempt fails), and each attempt says whether
 * the partner asked for it.
 */
export class ManualRedelivery extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE deliveries ADD COLUMN resume_at timestamptz');
    this.addSql('ALTER TABLE delivery_attempts ADD COLUMN manual boolean NOT NULL DEFAULT false');
  }
}
