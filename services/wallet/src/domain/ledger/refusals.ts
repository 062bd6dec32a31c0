import { AppError } from '@coin/errors';
import type { Refused } from './batch-items.ts';

/** The error a transfer, reversal or pending-transfer change the batch function refused answers with. */
export function refusal(outcome: Exclude<Refused, 'expired' | 'skipped'>): AppError {
  switch (outcome) {
    case 'insufficient':
      return AppError.unprocessable(
        'INSUFFICIENT_BALANCE',
        'the user has not enough coins for this transfer',
      );
    case 'limit_reached':
      return AppError.unprocessable(
        'ISSUANCE_LIMIT_REACHED',
        "this transfer would take the coins your users hold over your treasury's issuanceLimit",
      );
    case 'already_reversed':
      return AppError.conflict('this ledger entry has already been reversed', 'ALREADY_REVERSED');
    case 'conflict':
      return AppError.unprocessable(
        'IDEMPOTENCY_CONFLICT',
        'Idempotency-Key was already used with a different request',
      );
    case 'in_progress':
      return AppError.conflict(
        'a request with this Idempotency-Key is still being processed; retry shortly',
        'IDEMPOTENCY_IN_PROGRESS',
      );
    case 'not_found':
      return AppError.notFound('no pending transfer of yours has this id');
    case 'already_posted':
      return AppError.conflict('this pending transfer has already been posted', 'PENDING_ALREADY_POSTED');
    case 'already_voided':
      return AppError.conflict('this pending transfer has already been voided', 'PENDING_ALREADY_VOIDED');
    case 'already_expired':
      return AppError.conflict(
        'this pending transfer expired: its coins went back to you',
        'PENDING_EXPIRED',
      );
    case 'exceeds':
      return AppError.unprocessable(
        'PENDING_AMOUNT_EXCEEDED',
        'coins is more than this pending transfer holds',
      );
  }
}
