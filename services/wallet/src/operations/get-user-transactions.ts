import { handle } from '@coin/bus';
import { paginate, wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { WalletDeps } from '../deps.ts';
import { LedgerEntry } from '../entities.ts';
import { ledgerEntryView } from '../ledger/entry-view.ts';

export function getUserTransactionsHandler(deps: WalletDeps) {
  return handle(wallet.getUserTransactions, async ({ partnerId, query }) => {
    if (!partnerId) throw AppError.unauthorized('partner required');
    const user = await deps.directory.user(partnerId, query.userId);
    const [rows, count] = await deps.orm.em.findAndCount(
      LedgerEntry,
      { partnerId, userId: user.userId },
      { orderBy: { seq: 'desc' }, limit: query.limit, offset: (query.page - 1) * query.limit },
    );
    return { data: rows.map(ledgerEntryView), ...paginate(count, query.page, query.limit) };
  });
}
