import { handle } from '@coin/bus';
import { paginate, wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { ledgerEntryView } from '../domain/ledger/entry-view.ts';
import { historyPage } from '../domain/ledger/user-wallet.ts';

export function getUserTransactionsHandler(deps: WalletDeps) {
  return handle(wallet.getUserTransactions, async ({ partnerId, query }) => {
    const user = await deps.directory.user(partnerId, query.userId);
    const { entries, count, nextCursor } = await historyPage(deps.db.em, partnerId, user.userId, {
      limit: query.limit,
      offset: (query.page - 1) * query.limit,
      before: query.cursor,
    });
    return {
      data: entries.map(ledgerEntryView),
      ...paginate(count, query.page, query.limit),
      nextCursor,
    };
  });
}
