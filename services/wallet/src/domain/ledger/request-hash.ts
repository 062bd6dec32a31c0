import { createHash } from 'node:crypto';

const sha256 = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/**
 * What an idempotency key is bound to: the operation and the body as the ledger sees it (coins as
 * exact text), so `1` and `1.0` are the same request and a key reused on the other direction is not.
 * Options a plain transfer does not have are appended only when given, so a plain transfer's hash
 * (and so every key stored before they existed) stays what it was.
 */
export function requestHash(
  operation: string,
  body: { userId: string; coins: string; narration?: string; pending?: unknown },
) {
  const parts: unknown[] = [operation, body.userId.toLowerCase(), body.coins, body.narration ?? null];
  if (body.pending !== undefined) parts.push({ pending: body.pending });
  return sha256(parts);
}

/** What a reversal's idempotency key is bound to: the entry it reverses and the reason. */
export function reversalRequestHash(body: { ledgerEntryId: string; reason?: string }) {
  return sha256(['reverseTransfer', body.ledgerEntryId.toLowerCase(), body.reason ?? null]);
}

/** What a post's or a void's idempotency key is bound to: the pending transfer and the body. */
export function pendingRequestHash(
  operation: 'postPendingTransfer' | 'voidPendingTransfer',
  id: string,
  body: { coins?: string; narration?: string; reason?: string },
) {
  return sha256([
    operation,
    id.toLowerCase(),
    body.coins ?? null,
    body.narration ?? null,
    body.reason ?? null,
  ]);
}
