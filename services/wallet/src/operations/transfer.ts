import { handle } from '@coin/bus';
import { RULE_REWARD_IDEMPOTENCY_PREFIX, type wallet } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { serializeTraceContext } from '@coin/telemetry';
import type { WalletDeps } from '../deps.ts';
import { transferEntryView } from '../domain/ledger/entry-view.ts';
import { ledgerTransfers } from '../domain/ledger/metrics.ts';
import { refusal } from '../domain/ledger/refusals.ts';
import { requestHash } from '../domain/ledger/request-hash.ts';
import type { Direction } from '../domain/ledger/transfer-batcher.ts';

type TransferOperation = typeof wallet.transferToUser | typeof wallet.transferFromUser;

/**
 * Both transfer directions: resolve the parties, then apply the transfer in Postgres, which also
 * decides idempotency. HTTP callers and other services (rules' rewards over NATS) meet the same rules.
 */
export function transferHandler(deps: WalletDeps, op: TransferOperation, direction: Direction) {
  return handle(op, async ({ partnerId, body, idempotencyKey }) => {
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255))
      throw AppError.badRequest('Idempotency-Key must be 1 to 255 characters');
    const [user, partner] = await Promise.all([
      deps.directory.user(partnerId, body.userId),
      deps.directory.partner(partnerId),
    ]);
    const userParty = await deps.directory.userParty(partner, user);
    const partnerParty = deps.directory.partnerParty(partner);
    const coins = body.coins.toFixed(2);
    const toUser = direction === 'to_user';
    const result = await deps.batcher.submit({
      partnerId,
      userId: user.userId,
      direction,
      coins,
      narration:
        body.narration ??
        (toUser ? `transfer from ${partner.partnerName}` : `transfer to ${partner.partnerName}`),
      idempotency: idempotencyKey
        ? { key: idempotencyKey, requestHash: requestHash(op.name, { ...body, coins }) }
        : undefined,
      from: toUser ? partnerParty : userParty,
      to: toUser ? userParty : partnerParty,
      traceContext: serializeTraceContext(),
      ruleReward: toUser && idempotencyKey?.startsWith(RULE_REWARD_IDEMPOTENCY_PREFIX) === true,
    });
    ledgerTransfers.inc({ direction, outcome: result.outcome });
    if (result.outcome === 'done' || result.outcome === 'replay')
      return { isExisting: result.outcome === 'replay', coinsLedger: transferEntryView(result.entry) };
    throw refusal(result.outcome);
  });
}
