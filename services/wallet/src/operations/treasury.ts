import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import type { WalletDeps } from '../deps.ts';
import { readTreasury, setIssuanceLimit } from '../domain/ledger/treasury.ts';

export function getTreasuryHandler(deps: WalletDeps) {
  return handle(wallet.getTreasury, ({ partnerId }) => readTreasury(deps.db.em.fork(), partnerId));
}

export function setTreasuryHandler(deps: WalletDeps) {
  return handle(wallet.setTreasury, async ({ partnerId, body }) => {
    await setIssuanceLimit(deps.db.em.fork(), partnerId, body.issuanceLimit);
    return readTreasury(deps.db.em.fork(), partnerId);
  });
}
