import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { expiringCoins } from '../domain/ledger/credit-lots.ts';
import { walletBalances } from '../domain/ledger/user-wallet.ts';

export function getBalanceHandler(deps: WalletDeps) {
  return handle(wallet.getBalance, async ({ partnerId, query }) => {
    const user = await deps.directory.user(partnerId, query.userId);
    const [{ available, pending }, expiring] = await Promise.all([
      walletBalances(deps.db.em, partnerId, user.userId),
      expiringCoins(deps.db.em.fork(), partnerId, user.userId),
    ]);
    return { userId: user.userId, coins: available, available, pending, expiring };
  });
}
