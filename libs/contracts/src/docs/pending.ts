import { keyConflict, keyed, partnerParty, transferEntry, userParty } from './coins.ts';
import { notFound } from './errors.ts';
import { EXAMPLE, FIRST_PAGE, type OperationDocs, onePage } from './types.ts';

const pendingTransfer = {
  id: EXAMPLE.entryId,
  userId: EXAMPLE.userId,
  coins: 40,
  status: 'pending',
  expiresAt: '2026-12-07T08:30:00.000Z',
  onExpiry: 'void',
  postedCoins: null,
  postEntryId: null,
  voidEntryId: null,
  resolvedBy: null,
  createdAt: EXAMPLE.at,
  resolvedAt: null,
} as const;

const postedAt = '2026-11-24T10:00:00.000Z';
const postEntry = {
  ...transferEntry,
  id: EXAMPLE.eventId,
  coins: 30,
  narration: `pending transfer ${EXAMPLE.entryId} posted`,
  balanceAfter: 30,
};
const releasedEntry = {
  ...transferEntry,
  id: EXAMPLE.deliveryId,
  debitOrCredit: 'DE',
  transactionType: 'pending_void',
  coins: 10,
  narration: `pending transfer ${EXAMPLE.entryId}: the part not posted, released`,
  from: userParty,
  to: partnerParty,
  balanceAfter: 30,
};

const notYours = notFound('no pending transfer of yours has this id');
const resolved = [
  { code: 'PENDING_ALREADY_POSTED', when: 'it was already posted (by you, or by its expiry)' },
  { code: 'PENDING_ALREADY_VOIDED', when: 'it was already voided' },
  { code: 'PENDING_EXPIRED', when: 'its expiry voided it (also when this call came after its expiresAt)' },
];

export const pendingDocs: Record<string, OperationDocs> = {
  postPendingTransfer: {
    description:
      "Posts a pending transfer to the user's wallet: all it holds, or `coins` of it, the rest going back to you (`releasedLedger`, a `pending_void` entry). The credit is a `partner_user_transfer` entry, counted on the coin leaderboard and sent as COINS_TRANSFERRED besides COINS_PENDING_POSTED. A pending transfer is posted or voided once, whatever the concurrency; once its `expiresAt` has passed, its expiry decides instead. Idempotent with `Idempotency-Key`, as transfers.",
    errors: {
      404: notYours,
      409: [...resolved, ...keyed[409]],
      422: [
        { code: 'PENDING_AMOUNT_EXCEEDED', when: '`coins` is more than the pending transfer holds' },
        keyConflict,
      ],
    },
    request: { coins: 30 },
    response: {
      isExisting: false,
      pendingTransfer: {
        ...pendingTransfer,
        status: 'posted',
        postedCoins: 30,
        postEntryId: postEntry.id,
        voidEntryId: releasedEntry.id,
        resolvedBy: 'partner',
        resolvedAt: postedAt,
      },
      coinsLedger: postEntry,
      releasedLedger: releasedEntry,
    },
  },
  voidPendingTransfer: {
    description:
      'Voids a pending transfer: all it holds goes back to you by a `pending_void` entry, and COINS_PENDING_VOIDED is sent. Voiding a voided transfer again is 409 `PENDING_ALREADY_VOIDED` (a retry with the same `Idempotency-Key` answers the first void, `isExisting: true`).',
    errors: { 404: notYours, 409: [...resolved, ...keyed[409]], 422: [keyConflict] },
    request: { reason: 'order returned' },
    response: {
      isExisting: false,
      pendingTransfer: {
        ...pendingTransfer,
        status: 'voided',
        voidEntryId: releasedEntry.id,
        resolvedBy: 'partner',
        resolvedAt: postedAt,
      },
      coinsLedger: {
        ...releasedEntry,
        coins: 40,
        narration: `pending transfer ${EXAMPLE.entryId} voided: order returned`,
        balanceAfter: 0,
      },
    },
  },
  getPendingTransfer: {
    description: 'One pending transfer: what it holds, its expiry, and whether and how it was resolved.',
    errors: { 404: notYours },
    response: pendingTransfer,
  },
  listPendingTransfers: {
    description:
      'Your pending transfers, newest first, paginated; `userId` and `status` (pending, posted, voided, expired) select some.',
    errors: { 404: notFound('the user is not one you onboarded') },
    query: { userId: EXAMPLE.userId, status: 'pending', ...FIRST_PAGE },
    response: onePage([pendingTransfer]),
  },
};
