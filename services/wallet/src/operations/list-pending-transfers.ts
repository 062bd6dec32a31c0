import { handle } from '@coin/bus';
import { paginate, wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { listPending } from '../domain/ledger/pending-transfers.ts';

/** The partner's pending transfers; with `userId`, the user must be one the partner onboarded. */
export function listPendingTransfersHandler(deps: WalletDeps) {
  return handle(wallet.listPendingTransfers, async ({ partnerId, query }) => {
    const userId = query.userId && (await deps.directory.user(partnerId, query.userId)).userId;
    const { rows, count } = await listPending(deps.db.em.fork(), partnerId, {
      userId,
      status: query.status,
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
    });
    return { data: rows, ...paginate(count, query.page, query.limit) };
  });
}
