/**
 * The outbox rows the wallet's batch function writes (see ledger-batch-function.ts), in the SQL each
 * migration wrote: the events' shapes are `transferCompletedEvent` and `transferReversedEvent` of
 * libs/contracts/src/events.ts.
 */

/** The fields every wallet event's payload starts with (`libs/contracts/src/events.ts`). */
function eventPayload(indent: string, fields: readonly string[]): string {
  const common = [
    "'eventId', event_id",
    "'partnerId', entry.partner_id",
    "'ledgerEntryId', entry.id",
    "'userId', entry.user_id",
  ];
  return [...common, ...fields].map((field) => `${indent}  ${field}`).join(',\n');
}

const CREATED_AT = `to_char(entry.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function outboxInsert(indent: string, subject: string, fields: readonly string[]): string {
  return `${indent}INSERT INTO outbox (id, subject, payload, trace_context)
${indent}VALUES (event_id, ${subject}, jsonb_build_object(
${eventPayload(indent, fields)}
${indent}), COALESCE(t.trace_context, '{}'::jsonb));`;
}

const TRANSFER_EVENT = [
  "'transactionType', entry.transaction_type",
  "'debitOrCredit', entry.debit_or_credit",
  "'coins', entry.coins::text",
  `'createdAt', ${CREATED_AT}`,
];

const REVERSAL_EVENT = [
  "'debitOrCredit', entry.debit_or_credit",
  "'coins', entry.coins::text",
  `'createdAt', ${CREATED_AT}`,
  "'reversedEntryId', original.id",
  "'reversedTransactionType', original.transaction_type",
  "'reversedRuleReward', original.rule_reward",
  `'reversedCreatedAt', ${CREATED_AT.replace('entry.', 'original.')}`,
];

/** The event added to the arrays 0008's function writes the outbox from after its loop. */
function outboxGathered(indent: string, subject: string, fields: readonly string[]): string {
  return `${indent}event_ids := event_ids || event_id;
${indent}event_subjects := event_subjects || ${subject};
${indent}event_payloads := event_payloads || jsonb_build_object(
${eventPayload(indent, fields)}
${indent});
${indent}event_traces := event_traces || COALESCE(t.trace_context, '{}'::jsonb);`;
}

/**
 * The outbox row of an applied item: the transfer event, or with reversals (0003 on) the reversal
 * event and the reversal's record; inserted at once, or (`gathered`, 0008 on) added to the arrays
 * written after the loop.
 */
export function outboxRow(reversals: boolean, transferSubject: string, gathered = false): string {
  const event = gathered ? outboxGathered : outboxInsert;
  if (!reversals) return event('      ', transferSubject, TRANSFER_EVENT);
  const record = gathered
    ? `        reversed := reversed || t.reverses;
        reversals := reversals || entry.id;
        reasons := reasons || t.reason;`
    : '        INSERT INTO ledger_reversals (original_id, reversal_id, reason) VALUES (t.reverses, entry.id, t.reason);';
  return `      IF t.reverses IS NULL THEN
${event('        ', transferSubject, TRANSFER_EVENT)}
      ELSE
${record}
        SELECT * INTO original FROM ledger_entries WHERE id = t.reverses;
${event('        ', 'reversal_subject', REVERSAL_EVENT)}
      END IF;`;
}
