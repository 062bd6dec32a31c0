import { Migration } from '@coin/db';
import { ledgerBatchFunction } from './ledger-batch-function.ts';

/**
 * `wallet_apply_transfers` (0001) with readable names for the batch items and the results:
 * `{item, partner_id, user_id, direction, coins, narration, idempotency_key, request_hash, from_party,
 * to_party, trace_context}` in, `{item, outcome, entry}` out. Same locking order, idempotency and
 * outbox row as 0001 (see its comment).
 *
 * A new function beside the old one rather than a replacement (expand, then contract): replicas of
 * the previous release keep calling `wallet_apply_transfers` with one-letter keys during a rolling
 * upgrade; the release after this one drops it.
 *
 * The outbox row is the event `events.wallet.transferCompleted`: its shape is
 * `transferCompletedEvent` in libs/contracts/src/events.ts, and services/wallet/test/ parses every
 * row this function writes with that schema. It is built here, in the same statement, so a transfer
 * stays one round trip.
 */
export class TransferBatch extends Migration {
  override async up(): Promise<void> {
    this.addSql(APPLY_TRANSFER_BATCH);
  }
}

const APPLY_TRANSFER_BATCH = ledgerBatchFunction({
  signature: 'wallet_apply_transfer_batch(batch jsonb, use_shard integer, event_subject text) RETURNS jsonb',
  keys: 'readable',
  ledger: false,
  transferSubject: 'event_subject',
});
