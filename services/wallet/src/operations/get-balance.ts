import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { walletBalance } from '../domain/ledger/user-wallet.ts';

export function getBalanceHandler(deps: WalletDeps) {
  return handle(wallet.getBalance, async ({ partnerId, query }) => {
    const user = await deps.directory.user(partnerId, query.userId);
    return { userId: user.userId, coins: await walletBalance(deps.db.em, partnerId, user.userId) };
  });
}
