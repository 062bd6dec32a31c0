import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { walletBalances } from '../domain/ledger/user-wallet.ts';

export function getBalanceHandler(deps: WalletDeps) {
  return handle(wallet.getBalance, async ({ partnerId, query }) => {
    const user = await deps.directory.user(partnerId, query.userId);
    const { available, pending } = await walletBalances(deps.db.em, partnerId, user.userId);
    return { userId: user.userId, coins: available, available, pending };
  });
}
