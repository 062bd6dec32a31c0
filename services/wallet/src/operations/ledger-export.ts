import { handle } from '@coin/bus';
import { wallet } from '@coin/contracts';
import { boundQuery } from '@coin/db';
import type { WalletDeps } from '../deps.ts';
import { CHAIN_COLUMNS, chainEntryFromRow } from '../domain/ledger/chain.ts';
import type { Party } from '../domain/parties/directory.ts';

export function ledgerExportHandler(deps: WalletDeps) {
  return handle(wallet.ledgerExport, async ({ partnerId, query }) => {
    const rows = await boundQuery<Record<string, unknown>>(
      deps.db.em.fork(),
      `SELECT ${CHAIN_COLUMNS} FROM ledger_chain c JOIN ledger_entries e ON e.id = c.entry_id
        WHERE c.partner_id = $1 AND c.chain_seq > $2 ORDER BY c.chain_seq LIMIT $3`,
      [partnerId, query.after, query.limit],
    );
    const entries = rows.map((r) => {
      const e = chainEntryFromRow(r);
      return {
        ...e,
        debitOrCredit: e.debitOrCredit as 'CR' | 'DE',
        from: e.from as Party,
        to: e.to as Party,
        hash: r.hash as string,
        prevHash: r.prev_hash as string,
      };
    });
    return {
      entries,
      nextAfter: entries.length === query.limit ? entries.at(-1)!.seq : null,
    };
  });
}
