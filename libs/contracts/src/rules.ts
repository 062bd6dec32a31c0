import { z } from 'zod';
import { guid, pagedList } from './common.ts';
import { MAX_COINS_PER_TRANSFER, transferLedgerEntrySchema } from './ledger-entry.ts';
import { type Operation, operationsOf } from './operation.ts';
import { occurredAt, ruleLimit, timeZone, windowTime } from './rule-limits.ts';
import { text } from './text.ts';

const { http } = operationsOf('rules');

/** The largest participant cap a rule may state. */
const MAX_PARTICIPANTS_PER_RULE = 1_000_000_000;

const RULE_STATUSES = ['active', 'inactive'] as const;
const ruleStatus = z.enum(RULE_STATUSES);

/** The longest numeric text a rule takes (leading zeros included). */
const MAX_NUMERIC_TEXT_LENGTH = 32;

/**
 * The specification (docs/specification.md) shows numeric fields as text; a partner sending a JSON
 * number is accepted too.
 */
const numericText = (schema: z.ZodString) =>
  z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v), schema);

/** Text, or a number, that `numericText` reads; anything else is named as such. */
const numeral = () =>
  z
    .string({
      error: (iss) => {
        if (iss.code !== 'invalid_type') return undefined;
        return iss.input === undefined ? 'is required' : 'must be numeric text or a number';
      },
    })
    .trim()
    .max(MAX_NUMERIC_TEXT_LENGTH, { abort: true });

const coinValue = numericText(
  numeral()
    .regex(/^\d+(\.\d{1,2})?$/, { error: 'must be numeric text with at most 2 decimal places', abort: true })
    .refine((s) => Number(s) > 0, { error: 'must be greater than 0' })
    .refine((s) => Number(s) <= MAX_COINS_PER_TRANSFER, {
      error: `must be at most ${MAX_COINS_PER_TRANSFER}`,
    }),
);

const maxNumberOfParticipant = numericText(
  numeral()
    .regex(/^\d+$/, { error: 'must be a whole number as text', abort: true })
    .refine((s) => Number(s) >= 1, { error: 'must be at least 1' })
    .refine((s) => Number(s) <= MAX_PARTICIPANTS_PER_RULE, {
      error: `must be at most ${MAX_PARTICIPANTS_PER_RULE}`,
    }),
);

/** The largest total a rule's budget may state. */
const MAX_RULE_BUDGET = 1_000_000_000_000;

/** The coins a rule may pay in all, pending payments included; it stops paying before going over. */
const budget = numericText(
  numeral()
    .regex(/^\d+(\.\d{1,2})?$/, { error: 'must be numeric text with at most 2 decimal places', abort: true })
    .refine((s) => Number(s) > 0, { error: 'must be greater than 0' })
    .refine((s) => Number(s) <= MAX_RULE_BUDGET, { error: `must be at most ${MAX_RULE_BUDGET}` }),
);

const ruleName = text({ max: 100 }).refine((s) => s === s.toLowerCase(), {
  error: 'must be lower case',
});

/** The Rule of docs/specification.md ("Rule"), as create and update return it. */
export const ruleSchema = z
  .object({
    id: guid,
    name: z.string(),
    coinValue: z.string(),
    condition: z.string(),
    maxNumberOfParticipant: z.string(),
    status: ruleStatus,
    /** Present only when set: a rule without them is docs/specification.md's Rule exactly. */
    userLimit: ruleLimit.optional(),
    budget: z.string().optional(),
    /** Coins the rule has paid or is paying (pending ones included), with `budget`. */
    spent: z.string().optional(),
    startsAt: z.string().optional(),
    endsAt: z.string().optional(),
  })
  .meta({
    id: 'Rule',
    description: 'A reward rule: its coins, condition, participant cap and status, and its limits when set.',
  });

/**
 * A rule as listed: with `userId`, the partner account that owns it, and `participants`, the users
 * rewarded by it so far (pending payments included), to read against `maxNumberOfParticipant`.
 */
export const listedRuleSchema = ruleSchema
  .extend({ userId: guid, participants: z.number().int() })
  .meta({ id: 'ListedRule', description: 'A rule as listed: with its owner and the users rewarded so far.' });

/**
 * POST, and the GET with a JSON body of docs/specification.md ("2. Create rule"; fetch cannot send it),
 * deprecated.
 */
export const createRule = http('createRule', 'POST /api/v1/laas/rules/create-rule', {
  permission: 'rules',
  alsoMethods: ['GET'],
  message: 'rule created successfully.',
  summary: 'Create a reward rule',
  schemas: {
    body: z
      .strictObject({
        name: ruleName,
        coinValue,
        maxNumberOfParticipant,
        /** Free text for people: the one request field that may hold line breaks and tabs. */
        condition: text({ min: 0, max: 2000, multiline: true }).default(''),
        /** With a limit, a user may be rewarded again, up to `times` per period; without, once. */
        userLimit: ruleLimit.optional(),
        budget: budget.optional(),
        startsAt: windowTime.optional(),
        endsAt: windowTime.optional(),
      })
      .refine((r) => !r.startsAt || !r.endsAt || Date.parse(r.endsAt) > Date.parse(r.startsAt), {
        path: ['endsAt'],
        error: 'must be after startsAt',
      }),
    response: ruleSchema,
  },
});

export const listRules = http('listRules', 'GET /api/v1/laas/rules', {
  permission: 'read',
  message: 'rules returned',
  summary: "The partner's rules, newest first; `status` selects active or inactive ones",
  schemas: pagedList(listedRuleSchema, { status: ruleStatus.optional() }),
});

export const updateRule = http('updateRule', 'PATCH /api/v1/laas/rules/:id', {
  permission: 'rules',
  message: 'rule updated',
  summary: 'Activate or deactivate a rule',
  schemas: {
    params: z.object({ id: guid }),
    body: z.strictObject({ status: ruleStatus }),
    response: ruleSchema,
  },
});

/**
 * The second object of docs/specification.md's "2. Create rule", `{userId, ruleName}`: pay a user the rule's
 * coins, once.
 */
export const rewardUser = http('rewardUser', 'POST /api/v1/laas/rules/reward', {
  permission: 'coins',
  idempotent: true,
  message: 'user rewarded',
  summary: "Credit a rule's coins to a user (at most once per user, up to the rule's participant cap)",
  schemas: {
    body: z.strictObject({
      userId: guid,
      ruleName: text({ max: 100 }),
      /**
       * When the earning event happened (ISO 8601 with an offset; now by default): a limited rule
       * counts the reward in that day, week or month, and the validity window is read at that time.
       */
      occurredAt: occurredAt.optional(),
    }),
    response: z.object({ isExisting: z.boolean(), coinsLedger: transferLedgerEntrySchema }).meta({
      id: 'Reward',
      description: 'A rule reward: its ledger entry, and whether it had been paid before.',
    }),
  },
});

const ruleSettingsSchema = z.object({ timeZone: z.string() }).meta({
  id: 'RuleSettings',
  description: 'Your rules settings: the time zone their limits count days in.',
});

export const getRuleSettings = http('getRuleSettings', 'GET /api/v1/laas/rules/settings', {
  permission: 'read',
  message: 'rule settings returned',
  summary: 'The time zone your rules count their daily, weekly and monthly limits in',
  schemas: { response: ruleSettingsSchema },
});

export const setRuleSettings = http('setRuleSettings', 'PUT /api/v1/laas/rules/settings', {
  permission: 'rules',
  message: 'rule settings saved',
  summary: 'Set the time zone (IANA name) your rules count their limits in',
  schemas: { body: z.strictObject({ timeZone }), response: ruleSettingsSchema },
});

/** The rules service's operations (HTTP routes and internal NATS subjects). */
export const rulesOperations: readonly Operation[] = [
  createRule,
  listRules,
  updateRule,
  rewardUser,
  getRuleSettings,
  setRuleSettings,
];
