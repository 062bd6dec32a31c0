export type { EntityManager } from '@mikro-orm/postgresql';
export { boundPage, boundQuery, boundRow, insertUnique, isoTime, readSnapshot } from './bound-query.ts';
export { dropDatabase, ensureDatabase } from './create-database.ts';
export { databaseFailure } from './database-errors.ts';
export { provisionDatabase } from './database-roles.ts';
export {
  type Database,
  migrateDatabase,
  openDatabase,
  requestScope,
} from './open-database.ts';
export { type NamedMigration, sqlMigration, sqlMigrations, statementsOf } from './sql-migrations.ts';
export { allowSlowStatements } from './statement-timeout.ts';
