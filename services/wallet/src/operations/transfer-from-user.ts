import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { transferHandler } from './transfer.ts';

export function transferFromUserHandler(deps: WalletDeps) {
  return transferHandler(deps, wallet.transferFromUser, 'from_user');
}
