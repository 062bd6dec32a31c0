import { sqlMigrations } from '@coin/db';

/** The `.sql` files beside this one, in name order (CONTRIBUTING.md, "Adding a migration"). */
export const identityMigrations = sqlMigrations(new URL('./', import.meta.url));
