/**
 * The statements a migration writes to make a table a job queue (see JobQueue for its columns).
 * Applied migrations must keep their SQL byte for byte (e2e/migration-sql.test.ts), so each
 * statement comes out exactly as the migrations that first wrote it had it, indentation included.
 */

import { Migration } from '@coin/db';

/** The index the claim reads: a queue's unparked pending jobs by due time. */
export function dueJobsIndex(q: { index: string; table: string; pending: string }): string {
  return `CREATE INDEX ${q.index} ON ${q.table} (next_attempt_at) WHERE ${q.pending} AND parked_at IS NULL`;
}

/** A trigger running `fn` on every row written to `table`, before it is written. */
export function beforeWriteTrigger(table: string, fn: string): string {
  return `
      CREATE TRIGGER ${fn} BEFORE INSERT OR UPDATE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION ${fn}()`;
}

/**
 * Keeps a job column equal to the column release 1.0.0 kept the same fact in, whichever release
 * writes the row: a write that sets only the old column (1.0.0) moves the new one, any other write
 * moves the old one with it. So replicas of both releases honour each other's rows during a rolling
 * update or after a rollback, and the old column can go one release later.
 */
export function mirroredColumn(m: { table: string; fn: string; column: string; legacy: string }): string[] {
  const { column, legacy } = m;
  return [
    `
      CREATE FUNCTION ${m.fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          NEW.${column} := coalesce(NEW.${column}, NEW.${legacy});
        ELSIF NEW.${column} IS NOT DISTINCT FROM OLD.${column} THEN
          NEW.${column} := NEW.${legacy};
        END IF;
        NEW.${legacy} := NEW.${column};
        RETURN NEW;
      END $$`,
    beforeWriteTrigger(m.table, m.fn),
  ];
}

/**
 * The migration that adds the index a queue's parked count reads (`readQueue`): without it, every
 * scrape of the queue's gauges read the whole table, finished jobs included. Building it reads the
 * table once, and writes to the table wait meanwhile.
 */
export function parkedJobsIndexMigration(q: { index: string; table: string }) {
  return class ParkedJobsIndex extends Migration {
    override async up(): Promise<void> {
      this.addSql(`CREATE INDEX ${q.index} ON ${q.table} (parked_at) WHERE parked_at IS NOT NULL`);
    }
  };
}
