import { boundQuery } from '@coin/db';
import { describe, expect, it } from 'vitest';
import { addToOutbox } from '../src/index.ts';
import { CLAIM_DUE_ROWS, RELAY_PASS_SETTINGS } from '../src/outbox.ts';
import { db, relay, restartRelay, until, useOutboxRelay } from './outbox-support.ts';

useOutboxRelay();

describe('transactional outbox: the relay pace and claim order', () => {
  it('drains a backlog larger than its batch on one notify, a full batch after another', async () => {
    // No tick of its own within the test: only the notify and the full passes move it.
    await restartRelay({ intervalMs: 60_000, batchSize: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        await db.em
          .fork()
          .transactional((tx) => addToOutbox(tx, { subject: 'events.test.backlog', payload: { i } })),
      );
    relay.notify();
    await until(async () => {
      const [{ n }] = await boundQuery<{ n: number }>(
        db.em.fork(),
        'SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1::uuid[]) AND published_at IS NOT NULL',
        [ids],
      );
      return n === ids.length;
    });
    await restartRelay({ intervalMs: 20 });
  });

  it('left idle with its default tick, looks about once a second; a row nobody notified still goes out', async () => {
    await restartRelay({});
    const commits = async () => {
      const [{ n }] = await boundQuery<{ n: string }>(
        db.em.fork(),
        'SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()',
        [],
      );
      return Number(n);
    };
    // A backend reports its counts to pg_stat_database at most once a second: the first reading
    // waits for everything before it, and the window is long enough for that lag to stay small.
    await new Promise((r) => setTimeout(r, 1500));
    const before = await commits();
    await new Promise((r) => setTimeout(r, 5000));
    const passes = (await commits()) - before;
    // Each pass commits a transaction of its own: 50 in 5 s at a 100 ms tick.
    expect(passes).toBeLessThanOrEqual(12);
    const id = await db.em
      .fork()
      .transactional((tx) => addToOutbox(tx, { subject: 'events.test.unnotified', payload: {} }));
    await until(async () => {
      const [row] = await boundQuery<{ published: boolean }>(
        db.em.fork(),
        'SELECT published_at IS NOT NULL AS published FROM outbox WHERE id = $1',
        [id],
      );
      return row.published;
    }, 3000);
    await restartRelay({ intervalMs: 20 });
  });

  it('claims in the order of the pending index, not by visiting the rows published since the last vacuum', async () => {
    // A published row stays in the pending index until the table is vacuumed: the test server runs
    // without autovacuum, as a busy outbox does between two of its runs.
    await db.em.fork().transactional(async (tx) => {
      await tx.execute(
        `INSERT INTO outbox (id, subject, payload)
         SELECT gen_random_uuid(), 'events.test.old', '{}' FROM generate_series(1, 60000)`,
      );
      await tx.execute(
        "UPDATE outbox SET published_at = now() WHERE subject = 'events.test.old' AND published_at IS NULL",
      );
    });
    type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] };
    const scans = (node: PlanNode): string[] => [
      ...(node['Node Type'].endsWith('Scan')
        ? [`${node['Node Type']} ${node['Index Name'] ?? ''}`.trim()]
        : []),
      ...(node.Plans ?? []).flatMap(scans),
    ];
    // Which scan, not how many blocks: while another transaction holds back the oldest snapshot (a
    // test beside this one), an index scan too meets every published row, until they are dead to all.
    const plan = await db.em.fork().transactional(async (tx) => {
      await boundQuery(tx, RELAY_PASS_SETTINGS, []);
      const [row] = await boundQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        tx,
        `EXPLAIN (FORMAT JSON) ${CLAIM_DUE_ROWS}`,
        [200],
      );
      return row['QUERY PLAN'][0].Plan;
    });
    // A bitmap scan visits every row the index lists, in every pass, and sorts what is due.
    expect(scans(plan)).toEqual(['Index Scan outbox_pending']);
  });
});
