import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { serializeTraceContext } from '@coin/telemetry';
import type { WalletDeps } from '../deps.ts';
import { transferEntryView } from '../domain/ledger/entry-view.ts';
import { ledgerTransfers } from '../domain/ledger/metrics.ts';
import { refusal } from '../domain/ledger/refusals.ts';
import { reversalRequestHash } from '../domain/ledger/request-hash.ts';
import { findEntry } from '../domain/ledger/user-wallet.ts';
import type { Party } from '../domain/parties/directory.ts';

/**
 * Entries that are corrections or steps of a pending transfer, not transfers: each with why. A post
 * (a `partner_user_transfer` from the hold) is reversed like any credit.
 */
const NOT_REVERSIBLE: Record<string, string> = {
  reversal: 'a reversal cannot itself be reversed',
  pending_transfer: 'this entry holds coins for a pending transfer: void the pending transfer instead',
  pending_void: 'this entry released the coins of a pending transfer, which cannot be undone',
  expiry: 'this entry expired coins, which cannot be undone: transfer them again',
};

/**
 * Corrects an entry with a new one going the other way. The checks that cannot change (the entry is
 * the partner's, it is not itself a reversal) are made here; whether it is still unreversed and the
 * wallet still holds the coins are decided by the batch function with the rows locked.
 */
export function reverseTransferHandler(deps: WalletDeps) {
  return handle(wallet.reverseTransfer, async ({ partnerId, body, idempotencyKey, actor, clientIp }) => {
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255))
      throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters');
    const original = await findEntry(deps.db.em.fork(), partnerId, body.ledgerEntryId);
    if (!original) throw AppError.notFound('no ledger entry of yours has this ledgerEntryId');
    const notReversible = NOT_REVERSIBLE[original.transactionType];
    if (notReversible) throw AppError.unprocessable('NOT_REVERSIBLE', notReversible);
    const credit = original.debitOrCredit === 'CR';
    const direction = credit ? 'from_user' : 'to_user';
    const result = await deps.batcher.submit({
      partnerId,
      userId: original.userId,
      direction,
      coins: Number(original.coins).toFixed(2),
      narration: `reversal of ${original.id}${body.reason ? `: ${body.reason}` : ''}`,
      idempotency: idempotencyKey
        ? { key: idempotencyKey, requestHash: reversalRequestHash(body) }
        : undefined,
      from: original.toParty as Party,
      to: original.fromParty as Party,
      traceContext: serializeTraceContext(),
      reverses: { entryId: original.id, reason: body.reason ?? null },
      audit: {
        partnerId,
        actor,
        clientIp,
        action: wallet.reverseTransfer.name,
        summary: `reversed ${Number(original.coins).toFixed(2)} coins (${original.transactionType}) of user ${original.userId}${body.reason ? `: ${body.reason}` : ''}`,
        details: {
          ledgerEntryId: original.id,
          userId: original.userId,
          coins: Number(original.coins).toFixed(2),
          reason: body.reason ?? null,
        },
      },
    });
    ledgerTransfers.inc({ direction: 'reversal', outcome: result.outcome });
    if (result.outcome === 'insufficient')
      throw AppError.unprocessable(
        'INSUFFICIENT_BALANCE',
        'the user has already spent coins this reversal would take back',
      );
    if (result.outcome !== 'done' && result.outcome !== 'replay') {
      if (result.outcome === 'expired' || result.outcome === 'skipped') throw AppError.internal();
      throw refusal(result.outcome);
    }
    const reversed = await findEntry(deps.db.em.fork(), partnerId, original.id);
    return {
      isExisting: result.outcome === 'replay',
      coinsLedger: transferEntryView(result.entry),
      reversedEntry: transferEntryView(reversed!),
    };
  });
}
