import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { transferEntryView } from '../domain/ledger/entry-view.ts';
import { resolvePending } from '../domain/ledger/resolve-pending.ts';

export function voidPendingTransferHandler(deps: WalletDeps) {
  return handle(wallet.voidPendingTransfer, async ({ partnerId, params, body, idempotencyKey }) => {
    const r = await resolvePending(deps, { op: 'void', partnerId, id: params.id, body, idempotencyKey });
    return {
      isExisting: r.isExisting,
      pendingTransfer: r.pendingTransfer,
      coinsLedger: transferEntryView(r.entry),
    };
  });
}
