import { Migration } from '@coin/db';

/** The event kinds a partner's webhook receives; NULL (every existing partner) means every kind. */
export class WebhookEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql('ALTER TABLE partners ADD COLUMN webhook_events text[]');
  }
}
