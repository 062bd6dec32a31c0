import { ledgerEntryNotOffered } from '../ledger-entry.ts';
import { duplicate, NOT_YOUR_USER, notFound } from './errors.ts';
import { EXAMPLE, FIRST_PAGE, type OperationDocs, onePage } from './types.ts';

export const partnerParty = {
  id: EXAMPLE.partnerId,
  fullname_businessName: 'Demo Ltd',
  email: 'dev@demo.example',
  tag: null,
  userId: EXAMPLE.partnerId,
};
export const userParty = {
  id: EXAMPLE.storedUserId,
  fullname_businessName: 'Ada Lovelace',
  email: 'ada@example.com',
  tag: 'ada',
  userId: EXAMPLE.userId,
};

const ledgerEntryExample = {
  id: EXAMPLE.entryId,
  userId: EXAMPLE.userId,
  debitOrCredit: 'CR',
  coins: 25.5,
  claimed: false,
  transactionType: 'partner_user_transfer',
  narration: 'transfer from Demo Ltd',
  from: partnerParty,
  to: userParty,
  ...ledgerEntryNotOffered,
  refunded: false,
  createdAt: EXAMPLE.at,
  updatedAt: EXAMPLE.at,
  balanceAfter: 25.5,
};

export const transferEntry = { ...ledgerEntryExample, reversed: false, status: 'Success', token: null };
const debitEntry = {
  ...transferEntry,
  debitOrCredit: 'DE',
  coins: 5,
  transactionType: 'user_partner_transfer',
  narration: 'transfer to Demo Ltd',
  from: userParty,
  to: partnerParty,
  balanceAfter: 20.5,
};

const notYourUser = notFound(NOT_YOUR_USER);
export const keyed = {
  409: [
    { code: 'IDEMPOTENCY_IN_PROGRESS', when: 'a request with this Idempotency-Key is still running; retry' },
  ],
};
export const keyConflict = {
  code: 'IDEMPOTENCY_CONFLICT',
  when: 'the Idempotency-Key was used for another request',
};

export const walletDocs: Record<string, OperationDocs> = {
  transferToUser: {
    description:
      "Moves coins from you to the user's wallet: one ledger entry (`CR`, `partner_user_transfer`). Send an `Idempotency-Key` and retry with the same key whenever you got no answer: the first result comes back with `isExisting: true` and nothing moves twice. With `pending`, the coins are held for the user instead (a `pending_transfer` entry and `pendingTransfer` in the answer): they leave you and count against your issuance limit, but the user cannot spend them until you post the pending transfer; you may void it, and at `expiresAt` (or `expiresInSeconds` from now) it resolves by itself as `onExpiry` says (void by default, or post). With `validity` (`{days}`, `{endOf: 'month' | 'year'}`, `{expiresInSeconds}` or `{expiresAt}`; without it your treasury's `defaultValidity`, if any), the credit opens a lot that expires then: spending takes from the lots that expire first, and what is left at the end leaves the wallet by an `expiry` entry; the entry answers `expiresAt`.",
    errors: {
      404: notYourUser,
      ...keyed,
      422: [
        {
          code: 'ISSUANCE_LIMIT_REACHED',
          when: 'the transfer would take your outstanding coins over your issuanceLimit',
        },
        keyConflict,
      ],
    },
    request: { userId: EXAMPLE.userId, coins: 25.5 },
    response: { isExisting: false, coinsLedger: transferEntry },
  },
  transferFromUser: {
    description:
      "Moves coins from the user's wallet to you (`DE`, `user_partner_transfer`). A wallet never goes below 0. Idempotent with `Idempotency-Key`, as above.",
    errors: {
      404: notYourUser,
      ...keyed,
      422: [{ code: 'INSUFFICIENT_BALANCE', when: 'the wallet holds fewer coins' }, keyConflict],
    },
    request: { userId: EXAMPLE.userId, coins: 5, narration: 'redeemed for a voucher' },
    response: { isExisting: false, coinsLedger: { ...debitEntry, narration: 'redeemed for a voucher' } },
  },
  getUserTransactions: {
    description:
      "The user's ledger entries, newest first, paginated. Each entry carries `balanceAfter` (the wallet's balance right after it) and `refunded: true` once reversed. `page`/`limit` page by position; for a walk that stays stable while new entries arrive, pass each answer's `nextCursor` as `cursor` (then `page` is ignored) until `nextCursor` is null: no entry comes twice and none is skipped.",
    errors: { 404: notYourUser },
    query: { userId: EXAMPLE.userId, limit: 20 },
    response: { ...onePage([ledgerEntryExample]), nextCursor: null },
  },
  reverseTransfer: {
    description:
      "Corrects a ledger entry (a transfer either way or a rule reward) with a new one: parties swapped, same coins, `transactionType: 'reversal'`, narration naming the original. The original then shows `reversed: true` here and `refunded: true` in history; a reversed credit leaves the coin leaderboard of the month it was earned in, and a reversed reward leaves the points leaderboard. An entry is reversed at most once, whatever the concurrency. Idempotent with `Idempotency-Key`, as transfers. Reversals are never refused by the issuance limit.",
    errors: {
      404: notFound('no ledger entry of yours has this id'),
      409: [{ code: 'ALREADY_REVERSED', when: 'the entry has already been reversed' }, ...keyed[409]],
      422: [
        {
          code: 'NOT_REVERSIBLE',
          when: "the entry is a reversal, or a pending transfer's hold or void (void the pending transfer instead)",
        },
        { code: 'INSUFFICIENT_BALANCE', when: 'the user has already spent coins the reversal takes back' },
        keyConflict,
      ],
    },
    request: { ledgerEntryId: EXAMPLE.entryId, reason: 'sent to the wrong user' },
    response: {
      isExisting: false,
      coinsLedger: {
        ...transferEntry,
        id: EXAMPLE.eventId,
        debitOrCredit: 'DE',
        transactionType: 'reversal',
        narration: `reversal of ${EXAMPLE.entryId}: sent to the wrong user`,
        from: userParty,
        to: partnerParty,
        balanceAfter: 0,
      },
      reversedEntry: { ...transferEntry, reversed: true, refunded: true },
    },
  },
  ledgerExport: {
    description:
      'Your ledger entries in the order of your hash chain, sealed after commit (usually within a second): each with its position `seq` (1, 2, … no gaps), `prevHash` and `hash` = hex(SHA-256(prevHash ‖ canonical entry)); the first `prevHash` is 64 zeros. The canonical entry and a standalone script to verify an export are in the partner guide "Coins and ledger" (docs/partners/coins-and-ledger.md). Page with `after` = the previous page\'s `nextAfter` until it is null.',
    query: { after: 0, limit: 100 },
    response: {
      entries: [
        {
          seq: 1,
          hash: 'b1946ac92492d2347c6235b4d2611184b1946ac92492d2347c6235b4d2611184',
          prevHash: '0'.repeat(64),
          id: EXAMPLE.entryId,
          userId: EXAMPLE.userId,
          transactionType: 'partner_user_transfer',
          debitOrCredit: 'CR',
          coins: '25.50',
          balanceAfter: '25.50',
          narration: 'transfer from Demo Ltd',
          from: partnerParty,
          to: userParty,
          createdAt: EXAMPLE.at,
        },
      ],
      nextAfter: null,
    },
  },
  getTreasury: {
    description:
      'Your coins: `issued` (credited to users: transfers and rewards), `redeemed` (taken back by transfers from users), both net of reversals, `expired` (credit lots past their validity), `outstanding` = issued − redeemed − expired (what your users hold, coins held by pending transfers included), `issuanceLimit` (null: unlimited) and `defaultValidity` (the validity of credits that name none; null: they do not expire).',
    response: {
      issued: 1250,
      redeemed: 200,
      expired: 50,
      outstanding: 1000,
      issuanceLimit: 5000,
      defaultValidity: { endOf: 'year' },
    },
  },
  setTreasury: {
    description:
      'Sets `issuanceLimit`, the most coins your users may hold in all, or clears it with null. A transfer to a user or a reward that would take `outstanding` over it is refused with 422 `ISSUANCE_LIMIT_REACHED`, exactly at the limit under any concurrency. A limit below `outstanding` refuses new issuance until redemptions bring it under. `defaultValidity` (`{days}` or `{endOf}`; null removes it) is the validity of the credits from then on that name none. A field left out keeps its value.',
    request: { issuanceLimit: 5000, defaultValidity: { endOf: 'year' } },
    response: {
      issued: 1250,
      redeemed: 200,
      expired: 50,
      outstanding: 1000,
      issuanceLimit: 5000,
      defaultValidity: { endOf: 'year' },
    },
  },
  coinSummary: {
    description:
      'Coins credited to your users (`issued`: transfers to users and rule rewards) and taken back (`redeemed`) in one calendar month (UTC, the current one by default), with the number of transfers per day.',
    query: { year: 2026, month: 11 },
    response: {
      year: 2026,
      month: 11,
      issued: 125.5,
      redeemed: 5,
      transfers: 3,
      days: [
        { day: '2026-11-01', transfers: 0, issued: 0, redeemed: 0 },
        { day: '2026-11-02', transfers: 3, issued: 125.5, redeemed: 5 },
      ],
    },
  },
  getBalance: {
    description:
      "The user's wallet balance (0 before the first transfer): `available` (also `coins`) is what the user can spend now, `pending` what pending transfers hold for the user until posted; `expiring` what the user's credit lots will take away, by time, soonest first (at most 10 times; spending takes from them first).",
    errors: { 404: notYourUser },
    query: { userId: EXAMPLE.userId },
    response: {
      userId: EXAMPLE.userId,
      coins: 20.5,
      available: 20.5,
      pending: 40,
      expiring: [{ coins: 10, expiresAt: '2026-12-31T00:00:00.000Z' }],
    },
  },
};

/** What a partner sends to create the example rule. */
const newRule = {
  name: 'first purchase',
  coinValue: '100',
  condition: 'first order paid',
  maxNumberOfParticipant: '500',
};
const rule = { id: EXAMPLE.ruleId, ...newRule, status: 'active' };

export const rulesDocs: Record<string, OperationDocs> = {
  createRule: {
    description:
      'Creates a rule, active at once. Optionally a `userLimit` (a user may then be rewarded again, up to `times` per day, week or month of your time zone), a `budget` (the most coins it pays in all) and a validity window (`startsAt`, `endsAt`); a rule without them is the specification\u2019s. The specification shows this call as GET with a JSON body, which the same path still accepts (deprecated: `fetch` and browsers send no GET body).',
    errors: { 409: duplicate('you already have a rule with this name') },
    request: newRule,
    response: rule,
  },
  getRuleSettings: {
    description:
      'The time zone your rules count their daily, weekly and monthly limits in (`UTC` until you set one).',
    response: { timeZone: 'Europe/Paris' },
  },
  setRuleSettings: {
    description:
      'Sets the time zone (an IANA name) your rules count their limits in. A change applies to rewards from then on; counts already made stay in the periods they were made in.',
    request: { timeZone: 'Europe/Paris' },
    response: { timeZone: 'Europe/Paris' },
  },
  listRules: {
    description: 'Your rules, newest first; `status` selects active or inactive ones.',
    query: { status: 'active', ...FIRST_PAGE },
    response: onePage([{ ...rule, userId: EXAMPLE.partnerId, participants: 42 }]),
  },
  updateRule: {
    description:
      'Activates or deactivates a rule. Deactivating stops new rewards; accepted ones are still paid.',
    errors: { 404: notFound('no rule of yours has this id') },
    request: { status: 'inactive' },
    response: { ...rule, status: 'inactive' },
  },
  rewardUser: {
    description:
      "Pays the rule's `coinValue` to the user: at most once per user per rule, or with a `userLimit` up to its `times` per period (each call without an `Idempotency-Key` is a new reward; the same key answers the same reward); to at most `maxNumberOfParticipant` distinct users, never over its `budget`, only inside its validity window (all exact under any concurrency). Asking again answers the first ledger entry with `isExisting: true`. The user also earns points equal to the coins.",
    errors: {
      404: notFound('no rule of yours has this name', NOT_YOUR_USER),
      ...keyed,
      422: [
        { code: 'RULE_INACTIVE', when: 'the rule is inactive' },
        { code: 'RULE_CAP_REACHED', when: 'the participant cap is reached' },
        { code: 'RULE_DAILY_LIMIT_REACHED', when: 'the user had `times` rewards of the rule this day' },
        { code: 'RULE_WEEKLY_LIMIT_REACHED', when: 'the user had `times` rewards of the rule this week' },
        { code: 'RULE_MONTHLY_LIMIT_REACHED', when: 'the user had `times` rewards of the rule this month' },
        { code: 'RULE_BUDGET_EXHAUSTED', when: 'one more reward would take the rule over its budget' },
        { code: 'RULE_NOT_STARTED', when: 'the reward\u2019s time is before the rule\u2019s `startsAt`' },
        { code: 'RULE_ENDED', when: 'the reward\u2019s time is at or after the rule\u2019s `endsAt`' },
        {
          code: 'ISSUANCE_LIMIT_REACHED',
          when: 'the transfer would take your outstanding coins over your issuanceLimit',
        },
        keyConflict,
      ],
    },
    request: { userId: EXAMPLE.userId, ruleName: 'first purchase' },
    response: {
      isExisting: false,
      coinsLedger: { ...transferEntry, coins: 100, narration: 'reward: first purchase' },
    },
  },
};
