import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { transferEntryView } from '../domain/ledger/entry-view.ts';
import { resolvePending } from '../domain/ledger/resolve-pending.ts';

export function postPendingTransferHandler(deps: WalletDeps) {
  return handle(wallet.postPendingTransfer, async ({ partnerId, params, body, idempotencyKey }) => {
    const r = await resolvePending(deps, { op: 'post', partnerId, id: params.id, body, idempotencyKey });
    return {
      isExisting: r.isExisting,
      pendingTransfer: r.pendingTransfer,
      coinsLedger: transferEntryView(r.entry),
      releasedLedger: r.released && transferEntryView(r.released),
    };
  });
}
