import { Migration } from '@coin/db';

/**
 * Partners registered before had two unrelated ids, and `id` passed where `partnerId` was expected
 * answered "not found". Nothing references `partners.id`, so it takes the value of `partner_id`.
 */
export class OnePartnerId extends Migration {
  override async up(): Promise<void> {
    this.addSql('UPDATE partners SET id = partner_id WHERE id <> partner_id');
    this.addSql('ALTER TABLE partners ADD CONSTRAINT partners_one_id CHECK (id = partner_id)');
  }
}
