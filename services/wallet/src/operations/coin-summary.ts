import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { monthSummary } from '../domain/ledger/month-summary.ts';

export function coinSummaryHandler(deps: WalletDeps) {
  return handle(wallet.coinSummary, async ({ partnerId, query }) => {
    const now = new Date();
    const year = query.year ?? now.getUTCFullYear();
    const month = query.month ?? now.getUTCMonth() + 1;
    return monthSummary(deps.db.em, partnerId, year, month);
  });
}
