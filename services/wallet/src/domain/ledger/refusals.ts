import { AppError } from '@coin/errors';
import type { TransferOutcome } from './transfer-batcher.ts';

type Refused = Exclude<TransferOutcome['outcome'], 'done' | 'replay'>;

/** The error a transfer or reversal the batch function refused answers with. */
export function refusal(outcome: Refused): AppError {
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
  }
}
