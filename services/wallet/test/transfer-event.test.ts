import { randomUUID } from 'node:crypto';
import { transferCompletedEvent, transferReversedEvent } from '@coin/contracts';
import { boundQuery, type Database, openDatabase } from '@coin/db';
import { createLogger } from '@coin/telemetry';
import { isolatedDatabases } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferCommand } from '../src/domain/ledger/batch-items.ts';
import { ledgerBatchItems } from '../src/domain/ledger/metrics.ts';
import { createTransferBatcher } from '../src/domain/ledger/transfer-batcher.ts';
import { walletMigrations } from '../src/migrations/index.ts';

// The transfer event is built in SQL (wallet_apply_ledger_batch), away from its zod schema: every
// row that function writes to the outbox must parse with the contract, with no field the contract
// does not name.
const log = createLogger('wallet-event-test', 'silent');
const dbs = isolatedDatabases(['walletevent']);
const contract = transferCompletedEvent.strict();
let db: Database;

beforeAll(async () => {
  db = await openDatabase({
    url: dbs.env.WALLETEVENT_DATABASE_URL,
    migrationUrl: dbs.env.WALLETEVENT_MIGRATION_DATABASE_URL,
    migrations: walletMigrations,
    log,
  });
});

afterAll(async () => {
  await db?.close();
  await dbs.drop();
});

function batcher() {
  return createTransferBatcher({ db, log, shards: 4, batchMax: 16, concurrency: 2, onCommitted: () => {} });
}

const party = (id: string) => ({ id, fullname_businessName: 'n', email: 'e@x.io', tag: null, userId: id });

function command(partnerId: string, userId: string, over: Partial<TransferCommand> = {}): TransferCommand {
  return {
    partnerId,
    userId,
    direction: 'to_user',
    coins: '10.50',
    narration: 'test',
    from: party(partnerId),
    to: party(userId),
    traceContext: {},
    ...over,
  };
}

async function eventsOf(partnerId: string) {
  const rows = await boundQuery<{ id: string; subject: string; payload: unknown }>(
    db.em.fork(),
    "SELECT id, subject, payload FROM outbox WHERE payload->>'partnerId' = $1 AND subject <> 'events.wallet.transferReversed' ORDER BY created_at",
    [partnerId],
  );
  return rows.map((r) => ({ id: r.id, subject: r.subject, event: contract.parse(r.payload) }));
}

async function reversalEventsOf(partnerId: string) {
  const rows = await boundQuery<{ id: string; payload: unknown }>(
    db.em.fork(),
    "SELECT id, payload FROM outbox WHERE payload->>'partnerId' = $1 AND subject = 'events.wallet.transferReversed' ORDER BY created_at",
    [partnerId],
  );
  return rows.map((r) => ({ id: r.id, event: transferReversedEvent.strict().parse(r.payload) }));
}

describe('the transfer event written by wallet_apply_ledger_batch', () => {
  it('parses with transferCompletedEvent and matches its ledger entry, in both directions', async () => {
    const partnerId = randomUUID();
    const userId = randomUUID();
    const b = batcher();
    const credit = await b.submit(command(partnerId, userId));
    const debit = await b.submit(command(partnerId, userId, { direction: 'from_user', coins: '0.50' }));
    if (credit.outcome !== 'done' || debit.outcome !== 'done') throw new Error('transfers not done');

    const events = await eventsOf(partnerId);
    expect(events.map((e) => e.subject)).toEqual([
      'events.wallet.transferCompleted',
      'events.wallet.transferCompleted',
    ]);
    for (const { id, event } of events) {
      expect(event.eventId).toBe(id);
      expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt);
    }
    const [cr, de] = events.map((e) => e.event);
    expect(cr).toMatchObject({
      partnerId,
      userId,
      ledgerEntryId: credit.entry.id,
      transactionType: 'partner_user_transfer',
      debitOrCredit: 'CR',
      coins: '10.50',
      createdAt: new Date(credit.entry.createdAt).toISOString(),
    });
    expect(de).toMatchObject({
      ledgerEntryId: debit.entry.id,
      transactionType: 'user_partner_transfer',
      debitOrCredit: 'DE',
      coins: '0.50',
    });
  });

  it('writes one event per transfer of a batch, none for a replay or a refused transfer', async () => {
    const partnerId = randomUUID();
    const users = [randomUUID(), randomUUID(), randomUUID()];
    const b = batcher();
    const idempotency = { key: 'k-1', requestHash: 'h-1' };
    const outcomes = await Promise.all([
      ...users.map((u, i) => b.submit(command(partnerId, u, { coins: `${i + 1}.00` }))),
      b.submit(command(partnerId, randomUUID(), { direction: 'from_user', coins: '1.00' })),
      b.submit(command(partnerId, users[0], { idempotency })),
    ]);
    const replay = await b.submit(command(partnerId, users[0], { idempotency }));
    expect(outcomes.map((o) => o.outcome)).toEqual(['done', 'done', 'done', 'insufficient', 'done']);
    expect(replay.outcome).toBe('replay');

    const events = (await eventsOf(partnerId)).map((e) => e.event);
    expect(events).toHaveLength(4);
    const entryIds = outcomes.flatMap((o) => (o.outcome === 'done' ? [o.entry.id] : []));
    expect(new Set(events.map((e) => e.ledgerEntryId))).toEqual(new Set(entryIds));
  });

  it('a reversal writes transferReversed (not transferCompleted), naming the original', async () => {
    const partnerId = randomUUID();
    const userId = randomUUID();
    const b = batcher();
    const credit = await b.submit(command(partnerId, userId, { ruleReward: true }));
    if (credit.outcome !== 'done') throw new Error('credit not done');
    const reversal = await b.submit(
      command(partnerId, userId, {
        direction: 'from_user',
        reverses: { entryId: credit.entry.id, reason: null },
      }),
    );
    if (reversal.outcome !== 'done') throw new Error('reversal not done');
    expect((await eventsOf(partnerId)).map((e) => e.event.ledgerEntryId)).toEqual([credit.entry.id]);
    const [{ id, event }] = await reversalEventsOf(partnerId);
    expect(event).toEqual({
      eventId: id,
      partnerId,
      ledgerEntryId: reversal.entry.id,
      userId,
      debitOrCredit: 'DE',
      coins: '10.50',
      createdAt: new Date(reversal.entry.createdAt).toISOString(),
      reversedEntryId: credit.entry.id,
      reversedTransactionType: 'partner_user_transfer',
      reversedRuleReward: true,
      reversedCreatedAt: new Date(credit.entry.createdAt).toISOString(),
    });
  });

  it("the previous release's wallet_apply_transfers goes through the same batch function", async () => {
    const partnerId = randomUUID();
    const userId = randomUUID();
    await batcher().submit(command(partnerId, userId, { coins: '1.00' }));
    const item = (c: string) => ({
      i: 0,
      p: partnerId,
      u: userId,
      dir: 'to_user',
      c,
      n: 'old replica',
      k: null,
      h: null,
      fp: party(partnerId),
      tp: party(userId),
      tc: {},
    });
    const [{ results }] = await boundQuery<{ results: { i: number; outcome: string; entry: any }[] }>(
      db.em.fork(),
      'SELECT wallet_apply_transfers($1::jsonb, 0, $2) AS results',
      [JSON.stringify([item('2.50')]), 'events.wallet.transferCompleted'],
    );
    expect(results).toMatchObject([{ i: 0, outcome: 'done', entry: { coins: 2.5, balance_after: 3.5 } }]);
    const [treasury] = await boundQuery<{ issued: string; outstanding: string }>(
      db.em.fork(),
      "SELECT sum(issued)::text AS issued, (-sum(balance))::text AS outstanding FROM accounts WHERE partner_id = $1 AND kind = 'partner'",
      [partnerId],
    );
    expect(treasury).toEqual({ issued: '3.50', outstanding: '3.50' });
  });
});

describe('transfer batches', () => {
  /** Count and sum of coin_ledger_batch_items so far. */
  async function batchItems(): Promise<{ count: number; sum: number }> {
    const metric = await ledgerBatchItems.get();
    const value = (suffix: string) =>
      metric.values.find((v) => v.metricName === `coin_ledger_batch_items_${suffix}`)?.value ?? 0;
    return { count: value('count'), sum: value('sum') };
  }

  it('applies what arrives while a batch runs in the next one, and counts the items per transaction', async () => {
    const partnerId = randomUUID();
    const oneInFlight = createTransferBatcher({
      db,
      log,
      shards: 4,
      batchMax: 16,
      concurrency: 1,
      onCommitted: () => {},
    });
    await oneInFlight.submit(command(partnerId, randomUUID()));
    const before = await batchItems();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => oneInFlight.submit(command(partnerId, randomUUID()))),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(20).fill('done'));
    // The first goes at once; the 19 that arrive while it runs fill the next batch (16) and the one after.
    expect(await batchItems()).toEqual({ count: before.count + 3, sum: before.sum + 20 });
  });
});
