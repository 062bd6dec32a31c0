import { handle } from '@coin/bus';
import { EVENT_SUBJECTS, wallet } from '@coin/contracts';
import { addToOutbox, auditEvent } from '@coin/events';
import type { WalletDeps } from '../deps.ts';
import { readTreasury, setTreasurySettings } from '../domain/ledger/treasury.ts';

export function getTreasuryHandler(deps: WalletDeps) {
  return handle(wallet.getTreasury, ({ partnerId }) => readTreasury(deps.db.em.fork(), partnerId));
}

const limit = (l: number | null) => (l === null ? 'none' : l.toFixed(2));
const validity = (v: wallet.PeriodValidity | null) => (v === null ? 'none' : JSON.stringify(v));

/** The new settings and their audit log entry commit together. */
export function setTreasuryHandler(deps: WalletDeps) {
  return handle(wallet.setTreasury, async ({ partnerId, body, actor, clientIp }) => {
    await deps.db.em.fork().transactional(async (tx) => {
      const before = await readTreasury(tx, partnerId);
      await setTreasurySettings(tx, partnerId, body);
      const changes: string[] = [];
      const details: Record<string, unknown> = {};
      if (body.issuanceLimit !== undefined) {
        changes.push(
          `set the issuance limit from ${limit(before.issuanceLimit)} to ${limit(body.issuanceLimit)}`,
        );
        Object.assign(details, { from: before.issuanceLimit, to: body.issuanceLimit });
      }
      if (body.defaultValidity !== undefined) {
        changes.push(
          `set the default validity from ${validity(before.defaultValidity)} to ${validity(body.defaultValidity)}`,
        );
        Object.assign(details, { validityFrom: before.defaultValidity, validityTo: body.defaultValidity });
      }
      await addToOutbox(
        tx,
        auditEvent(EVENT_SUBJECTS.walletAudit, {
          partnerId,
          actor,
          clientIp,
          action: wallet.setTreasury.name,
          summary: changes.join('; '),
          details,
        }),
      );
    });
    deps.validities.forget(partnerId);
    deps.relay.notify();
    return readTreasury(deps.db.em.fork(), partnerId);
  });
}
