import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import type { WalletDeps } from '../deps.ts';
import { Account } from '../entities.ts';

export function getBalanceHandler(deps: WalletDeps) {
  return handle(wallet.getBalance, async ({ partnerId, query }) => {
    if (!partnerId) throw AppError.unauthorized('partner required');
    const user = await deps.directory.user(partnerId, query.userId);
    const account = await deps.orm.em.findOne(Account, { partnerId, kind: 'user', userId: user.userId });
    return { userId: user.userId, coins: Number(account?.balance ?? 0) };
  });
}
