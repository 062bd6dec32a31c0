export { Migration } from '@mikro-orm/migrations';
export { type EntityManager, raw } from '@mikro-orm/postgresql';
export { boundQuery } from './bound-query.ts';
export { dropDatabase, ensureDatabase } from './create-database.ts';
export { type Database, type OpenDatabaseOptions, openDatabase, requestScope } from './open-database.ts';
