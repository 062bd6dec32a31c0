import type { Database } from '@coin/db';
import type { WalletConfig } from './config.ts';
import type { TransferBatcher } from './domain/ledger/transfer-batcher.ts';
import type { Directory } from './domain/parties/directory.ts';

export interface WalletDeps {
  db: Database;
  config: WalletConfig;
  directory: Directory;
  batcher: TransferBatcher;
}
