import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { findPending } from '../domain/ledger/pending-transfers.ts';
import { refusal } from '../domain/ledger/refusals.ts';

export function getPendingTransferHandler(deps: WalletDeps) {
  return handle(wallet.getPendingTransfer, async ({ partnerId, params }) => {
    const found = await findPending(deps.db.em.fork(), partnerId, params.id);
    if (!found) throw refusal('not_found');
    return found;
  });
}
