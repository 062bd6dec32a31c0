import { outboxMigrations } from '@coin/events';
import { Ledger } from './0001-ledger.ts';
import { TransferBatch } from './0002-transfer-batch.ts';
import { ReversalsTreasury } from './0003-reversals-treasury.ts';
import { LedgerChain } from './0004-ledger-chain.ts';
import { PreviousReleaseBatch } from './0005-previous-release-batch.ts';
import { TreasuryLow } from './0006-treasury-low.ts';
import { BatchAnswersArray } from './0007-batch-answers-array.ts';
import { RowsAfterLoop } from './0008-rows-after-loop.ts';
import { SealQueuePerStatement } from './0009-seal-queue-per-statement.ts';
import { ReferencesVerified } from './0010-references-verified.ts';

export const walletMigrations = [
  ...outboxMigrations,
  { name: '0001-ledger', class: Ledger },
  { name: '0002-transfer-batch', class: TransferBatch },
  { name: '0003-reversals-treasury', class: ReversalsTreasury },
  { name: '0004-ledger-chain', class: LedgerChain },
  { name: '0005-previous-release-batch', class: PreviousReleaseBatch },
  { name: '0006-treasury-low', class: TreasuryLow },
  { name: '0007-batch-answers-array', class: BatchAnswersArray },
  { name: '0008-rows-after-loop', class: RowsAfterLoop },
  { name: '0009-seal-queue-per-statement', class: SealQueuePerStatement },
  { name: '0010-references-verified', class: ReferencesVerified },
];
