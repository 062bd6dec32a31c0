import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { transferHandler } from './transfer.ts';

export function transferToUserHandler(deps: WalletDeps) {
  return transferHandler(deps, wallet.transferToUser, 'to_user');
}
