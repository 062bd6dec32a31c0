import { handle } from '@coin/bus';
import { EVENT_SUBJECTS, wallet } from '@coin/contracts';
import { addToOutbox, auditEvent } from '@coin/events';
import type { WalletDeps } from '../deps.ts';
import { readTreasury, setIssuanceLimit } from '../domain/ledger/treasury.ts';

export function getTreasuryHandler(deps: WalletDeps) {
  return handle(wallet.getTreasury, ({ partnerId }) => readTreasury(deps.db.em.fork(), partnerId));
}

/** The new limit and its audit log entry commit together. */
export function setTreasuryHandler(deps: WalletDeps) {
  return handle(wallet.setTreasury, async ({ partnerId, body, actor, clientIp }) => {
    await deps.db.em.fork().transactional(async (tx) => {
      const before = await readTreasury(tx, partnerId);
      await setIssuanceLimit(tx, partnerId, body.issuanceLimit);
      const limit = (l: number | null) => (l === null ? 'none' : l.toFixed(2));
      await addToOutbox(
        tx,
        auditEvent(EVENT_SUBJECTS.walletAudit, {
          partnerId,
          actor,
          clientIp,
          action: wallet.setTreasury.name,
          summary: `set the issuance limit from ${limit(before.issuanceLimit)} to ${limit(body.issuanceLimit)}`,
          details: { from: before.issuanceLimit, to: body.issuanceLimit },
        }),
      );
    });
    deps.relay.notify();
    return readTreasury(deps.db.em.fork(), partnerId);
  });
}
