import type { Database } from '@coin/db';
import type { OutboxRelay } from '@coin/events';
import type { WalletConfig } from './config.ts';
import type { DefaultValidities } from './domain/ledger/default-validity.ts';
import type { TransferBatcher } from './domain/ledger/transfer-batcher.ts';
import type { Directory } from './domain/parties/directory.ts';

export interface WalletDeps {
  db: Database;
  config: WalletConfig;
  directory: Directory;
  batcher: TransferBatcher;
  /** Publishes what a handler wrote to the outbox (the batcher notifies it for its own writes). */
  relay: OutboxRelay;
  validities: DefaultValidities;
}
