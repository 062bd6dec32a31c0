import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { WalletDeps } from '../deps.ts';
import { walletBalance } from '../ledger/user-wallet.ts';

export function getBalanceHandler(deps: WalletDeps) {
  return handle(wallet.getBalance, async ({ partnerId, query }) => {
    if (!partnerId) throw AppError.unauthorized('partner required');
    const user = await deps.directory.user(partnerId, query.userId);
    return { userId: user.userId, coins: await walletBalance(deps.orm.em, partnerId, user.userId) };
  });
}
