import type { wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { serializeTraceContext } from '@coin/telemetry';
import type { WalletDeps } from '../../deps.ts';
import type { EntryRecord } from './entry-view.ts';
import { ledgerTransfers } from './metrics.ts';
import { findPending } from './pending-transfers.ts';
import { refusal } from './refusals.ts';
import { pendingRequestHash } from './request-hash.ts';
import { findEntry } from './user-wallet.ts';

type PendingView = wallet.PendingTransferView;

/** The 409 of a pending transfer that is no longer pending, saying what became of it and when. */
function resolvedRefusal(p: PendingView): AppError {
  const by = p.resolvedBy === 'expiry' ? 'by its expiry' : 'by you';
  switch (p.status) {
    case 'posted':
      return AppError.conflict(
        `this pending transfer was already posted ${by} at ${p.resolvedAt}`,
        'PENDING_ALREADY_POSTED',
      );
    case 'voided':
      return AppError.conflict(
        `this pending transfer was already voided at ${p.resolvedAt}`,
        'PENDING_ALREADY_VOIDED',
      );
    default:
      return AppError.conflict(
        `this pending transfer expired at ${p.expiresAt}: its coins went back to you`,
        'PENDING_EXPIRED',
      );
  }
}

export interface PendingChange {
  op: 'post' | 'void';
  partnerId: string;
  id: string;
  body: { coins?: number; narration?: string; reason?: string };
  idempotencyKey?: string;
}

/**
 * Posts or voids a pending transfer through the batch function, which decides under the transfer's
 * row lock; the checks that cannot change (it is the partner's, a post is not more than held) are
 * made here first. Answers the transfer as it now stands and the entries the change wrote.
 */
export async function resolvePending(
  deps: WalletDeps,
  change: PendingChange,
): Promise<{
  isExisting: boolean;
  pendingTransfer: PendingView;
  entry: EntryRecord;
  released: EntryRecord | null;
}> {
  const { op, partnerId, id, body, idempotencyKey } = change;
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255))
    throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters');
  const before = await findPending(deps.db.em.fork(), partnerId, id);
  if (!before) throw refusal('not_found');
  if (body.coins !== undefined && body.coins > before.coins)
    throw AppError.unprocessable(
      'PENDING_AMOUNT_EXCEEDED',
      `coins ${body.coins} is more than the ${before.coins} this pending transfer holds`,
    );
  const coins = body.coins?.toFixed(2);
  const operation = op === 'post' ? 'postPendingTransfer' : 'voidPendingTransfer';
  const result = await deps.batcher.submit({
    op,
    partnerId,
    userId: before.userId,
    pendingId: id,
    coins,
    narration: body.narration,
    reason: body.reason ?? null,
    idempotency: idempotencyKey
      ? { key: idempotencyKey, requestHash: pendingRequestHash(operation, id, { ...body, coins }) }
      : undefined,
    traceContext: serializeTraceContext(),
  });
  ledgerTransfers.inc({ direction: op, outcome: result.outcome });
  const after = await findPending(deps.db.em.fork(), partnerId, id);
  if (result.outcome === 'done' || result.outcome === 'replay') {
    const released =
      result.released ??
      (after!.postEntryId && after!.voidEntryId
        ? await findEntry(deps.db.em.fork(), partnerId, after!.voidEntryId)
        : null);
    return {
      isExisting: result.outcome === 'replay',
      pendingTransfer: after!,
      entry: result.entry,
      released,
    };
  }
  switch (result.outcome) {
    case 'already_posted':
    case 'already_voided':
    case 'already_expired':
    case 'expired':
      throw resolvedRefusal(after!);
    case 'skipped':
      throw AppError.internal();
    default:
      throw refusal(result.outcome);
  }
}
