import { outboxRow } from './ledger-batch-events.ts';

/**
 * The wallet's batch function, one template for the migrations that create it: 0001's
 * `wallet_apply_transfers` (release 1.0.0's one-letter item keys), 0002's `wallet_apply_transfer_batch`
 * (the same function with readable keys), 0003's `wallet_apply_ledger_batch` (grown by reversals,
 * `balance_after`, the treasury's issued/redeemed sums and the issuance limit), 0007's replacement
 * of it (the same rules, its answers gathered in linear time) and 0008's (the same rules, the rows
 * written once per batch). Each migration keeps writing, byte for
 * byte, the SQL it wrote when applied (e2e/migration-sql.test.ts pins its digest).
 *
 * What the function does, and its locking order, is told in the comments of 0001–0003.
 */
export interface LedgerBatchFunction {
  /** What follows `CREATE FUNCTION`: name, parameters and return type. */
  signature: string;
  /** The batch items' keys: 1.0.0's one-letter keys, or their readable names. */
  keys: 'one-letter' | 'readable';
  /** Reversals, `balance_after`, issued/redeemed and the issuance limit (0003 on). */
  ledger: boolean;
  /** The parameter holding the transfer event's subject. */
  transferSubject: string;
  /**
   * 0007 on: `CREATE OR REPLACE`, and the items' answers gathered in a `jsonb[]` (appended in place)
   * and turned into one JSON array at the end. Appending to a `jsonb` array rebuilt the whole array
   * for every item: quadratic in the batch.
   */
  answersInArray?: boolean;
  /**
   * 0008 on: the items' new rows (entry, postings, reversal record, event, idempotency key) gathered
   * in arrays during the loop and written by one INSERT per table after it. Postgres starts an
   * executor for every statement, and with it prepares the table's CHECK constraints again (a perf
   * profile of the backend showed it parsing their stored text): five INSERTs per item cost about a
   * fifth of the function's time.
   */
  rowsAfterLoop?: boolean;
}

/** An item's fields: readable name, 1.0.0's one-letter key, type. */
const ITEM_FIELDS = [
  ['item', 'i', 'integer'],
  ['partner_id', 'p', 'uuid'],
  ['user_id', 'u', 'uuid'],
  ['direction', 'dir', 'text'],
  ['coins', 'c', 'numeric'],
  ['narration', 'n', 'text'],
  ['idempotency_key', 'k', 'text'],
  ['request_hash', 'h', 'text'],
  ['from_party', 'fp', 'jsonb'],
  ['to_party', 'tp', 'jsonb'],
  ['trace_context', 'tc', 'jsonb'],
] as const;

const LEDGER_ITEM_FIELDS = [
  ['rule_reward', 'boolean'],
  ['reverses', 'uuid'],
  ['reason', 'text'],
] as const;

const ONE_LETTER: Record<string, string> = Object.fromEntries(ITEM_FIELDS.map(([name, key]) => [name, key]));

const when = (condition: boolean, sql: string) => (condition ? sql : '');

/** The record the items are read as, wrapped at 120 columns. */
function itemRecord(f: LedgerBatchFunction): string {
  const columns = [
    ...ITEM_FIELDS.map(([name, key, type]) => `${f.keys === 'one-letter' ? key : name} ${type}`),
    ...(f.ledger ? LEDGER_ITEM_FIELDS.map(([name, type]) => `${name} ${type}`) : []),
  ];
  const lines = ['      AS x('];
  columns.forEach((column, i) => {
    const text = `${column}${i === columns.length - 1 ? ')' : ','}`;
    const line = lines[lines.length - 1];
    if (line.endsWith('(')) lines[lines.length - 1] = line + text;
    else if (line.length + 1 + text.length > 120) lines.push(`          ${text}`);
    else lines[lines.length - 1] = `${line} ${text}`;
  });
  return lines.join('\n');
}

const LOCK_TREASURIES_AND_ORIGINALS = `
  FOR tr IN
    SELECT w.partner_id, w.issuance_limit FROM wallet_treasuries w
     WHERE w.issuance_limit IS NOT NULL
       AND w.partner_id IN (SELECT (x ->> 'partner_id')::uuid FROM jsonb_array_elements(batch) x
                             WHERE x ->> 'direction' = 'to_user' AND x ->> 'reverses' IS NULL)
     ORDER BY w.partner_id FOR UPDATE
  LOOP
    room := jsonb_set(room, ARRAY[tr.partner_id::text], to_jsonb(tr.issuance_limit + (
      SELECT COALESCE(sum(a.balance), 0) FROM accounts a WHERE a.partner_id = tr.partner_id AND a.kind = 'partner')));
  END LOOP;

  PERFORM 1 FROM ledger_entries e
   WHERE e.id IN (SELECT (x ->> 'reverses')::uuid FROM jsonb_array_elements(batch) x WHERE x ->> 'reverses' IS NOT NULL)
   ORDER BY e.id FOR UPDATE;
`;

/** `reversed` holds the originals reversed earlier in the batch, whose records are not written yet. */
const refuseReversedOrOverLimit = (rowsAfterLoop: boolean) => `
    IF outcome IS NULL AND t.reverses IS NOT NULL THEN
      IF ${rowsAfterLoop ? 't.reverses = ANY (reversed) OR ' : ''}EXISTS (SELECT 1 FROM ledger_reversals WHERE original_id = t.reverses) THEN
        outcome := 'already_reversed';
      END IF;
    END IF;

    IF outcome IS NULL AND room ? t.partner_id::text THEN
      IF t.direction = 'to_user' AND t.reverses IS NULL AND t.coins > (room ->> t.partner_id::text)::numeric THEN
        outcome := 'limit_reached';
      END IF;
    END IF;
`;

const PARTNER_DELTA = `      partner_deltas := jsonb_set(partner_deltas, ARRAY[partner_account::text],
        to_jsonb(COALESCE((partner_deltas ->> partner_account::text)::numeric, 0) - signed));`;

const PARTNER_DELTAS_WITH_ISSUED_REDEEMED = `      -- issued and redeemed count net of reversals: reversing a credit takes it off issued,
      -- reversing a debit takes it off redeemed.
      partner_deltas := jsonb_set(partner_deltas, ARRAY[partner_account::text], jsonb_build_object(
        'balance', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'balance'])::numeric, 0) - signed,
        'issued', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'issued'])::numeric, 0)
          + CASE WHEN t.reverses IS NULL AND signed > 0 THEN t.coins
                 WHEN t.reverses IS NOT NULL AND signed < 0 THEN -t.coins ELSE 0 END,
        'redeemed', COALESCE((partner_deltas #>> ARRAY[partner_account::text, 'redeemed'])::numeric, 0)
          + CASE WHEN t.reverses IS NULL AND signed < 0 THEN t.coins
                 WHEN t.reverses IS NOT NULL AND signed > 0 THEN -t.coins ELSE 0 END));`;

const APPLY_PARTNER_DELTAS = `  FOR d IN SELECT key::bigint AS account_id, value::numeric AS delta FROM jsonb_each_text(partner_deltas) ORDER BY 1
  LOOP
    UPDATE accounts SET balance = balance + d.delta, updated_at = now() WHERE id = d.account_id;
  END LOOP;`;

const APPLY_PARTNER_DELTAS_WITH_ISSUED_REDEEMED = `  FOR d IN SELECT key::bigint AS account_id, value AS delta FROM jsonb_each(partner_deltas) ORDER BY 1
  LOOP
    UPDATE accounts SET balance = balance + (d.delta ->> 'balance')::numeric,
                        issued = issued + (d.delta ->> 'issued')::numeric,
                        redeemed = redeemed + (d.delta ->> 'redeemed')::numeric,
                        updated_at = now()
     WHERE id = d.account_id;
  END LOOP;`;

/** The arrays 0008's function gathers the batch's new rows in, a column each. */
const ROWS_DECLARED = `  entry_seq regclass := pg_get_serial_sequence('ledger_entries', 'seq')::regclass;
  entries ledger_entries[] := '{}';
  posting_entries uuid[] := '{}';
  posting_accounts bigint[] := '{}';
  posting_amounts numeric[] := '{}';
  reversed uuid[] := '{}';
  reversals uuid[] := '{}';
  reasons text[] := '{}';
  event_ids uuid[] := '{}';
  event_subjects text[] := '{}';
  event_payloads jsonb[] := '{}';
  event_traces jsonb[] := '{}';
  key_partners uuid[] := '{}';
  keys text[] := '{}';
  key_hashes text[] := '{}';
  key_entries uuid[] := '{}';
`;

/**
 * The entry as the INSERT of 0001–0007 made it: its `seq` taken from the column's sequence in the
 * same order, its times from the clock when the item is applied.
 */
const ENTRY_AND_POSTINGS_GATHERED = `      entry.id := gen_random_uuid();
      entry.seq := nextval(entry_seq);
      entry.partner_id := t.partner_id;
      entry.user_id := t.user_id;
      entry.transaction_type := CASE WHEN t.reverses IS NOT NULL THEN 'reversal'
        WHEN t.direction = 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END;
      entry.debit_or_credit := CASE t.direction WHEN 'to_user' THEN 'CR' ELSE 'DE' END;
      entry.coins := t.coins;
      entry.narration := t.narration;
      entry.from_party := t.from_party;
      entry.to_party := t.to_party;
      entry.created_at := clock_timestamp();
      entry.updated_at := entry.created_at;
      entry.balance_after := wallet_balance;
      entry.rule_reward := COALESCE(t.rule_reward, false);
      entries := entries || entry;
      posting_entries := posting_entries || entry.id || entry.id;
      posting_accounts := posting_accounts || wallet_id || partner_account;
      posting_amounts := posting_amounts || signed || (-signed);`;

/**
 * 0008's rows, written in the order the loop gathered them (entries first: the others refer to them).
 * An idempotency key twice in one batch goes unseen by the loop, whose lookup reads the table, where
 * the batch's keys arrive only here: the key's primary key then fails the batch, and the batcher
 * applies its items one by one, which answers the second its replay or conflict. A replica's batcher
 * never queues a key twice.
 */
const ROWS_WRITTEN = `
  INSERT INTO ledger_entries (id, seq, partner_id, user_id, transaction_type, debit_or_credit, coins, narration,
                              from_party, to_party, created_at, updated_at, balance_after, rule_reward)
    OVERRIDING SYSTEM VALUE
    SELECT e.id, e.seq, e.partner_id, e.user_id, e.transaction_type, e.debit_or_credit, e.coins, e.narration,
           e.from_party, e.to_party, e.created_at, e.updated_at, e.balance_after, e.rule_reward
      FROM unnest(entries) AS e;
  INSERT INTO postings (entry_id, account_id, amount)
    SELECT * FROM unnest(posting_entries, posting_accounts, posting_amounts);
  INSERT INTO ledger_reversals (original_id, reversal_id, reason) SELECT * FROM unnest(reversed, reversals, reasons);
  INSERT INTO outbox (id, subject, payload, trace_context)
    SELECT * FROM unnest(event_ids, event_subjects, event_payloads, event_traces);
  INSERT INTO idempotency_keys (partner_id, key, request_hash, entry_id)
    SELECT * FROM unnest(key_partners, keys, key_hashes, key_entries);
`;

/** The item's entry and postings, inserted at once (0001–0007). */
function entryAndPostingsInserted(f: LedgerBatchFunction): string {
  return `      INSERT INTO ledger_entries
        (id, partner_id, user_id, transaction_type, debit_or_credit, coins, narration, from_party, to_party${
          f.ledger ? ',\n         balance_after, rule_reward)' : ')'
        }
      VALUES (
        gen_random_uuid(), t.partner_id, t.user_id,
        ${
          f.ledger
            ? "CASE WHEN t.reverses IS NOT NULL THEN 'reversal'\n             WHEN t.direction = 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END"
            : "CASE t.direction WHEN 'to_user' THEN 'partner_user_transfer' ELSE 'user_partner_transfer' END"
        },
        CASE t.direction WHEN 'to_user' THEN 'CR' ELSE 'DE' END,
        t.coins, t.narration, t.from_party, t.to_party${f.ledger ? ', wallet_balance, COALESCE(t.rule_reward, false))' : ')'}
      RETURNING * INTO entry;
      INSERT INTO postings (entry_id, account_id, amount)
      VALUES (entry.id, wallet_id, signed), (entry.id, partner_account, -signed);`;
}

/** The `CREATE FUNCTION` statement of one of the migrations. */
export function ledgerBatchFunction(f: LedgerBatchFunction): string {
  const wallet = f.ledger ? 'a.id, a.balance INTO wallet_id, wallet_balance' : 'a.id INTO wallet_id';
  const sql = `
CREATE ${f.answersInArray ? 'OR REPLACE ' : ''}FUNCTION ${f.signature}
LANGUAGE plpgsql AS $fn$
DECLARE
  t record;
  stored record;
  d record;
${when(f.ledger, '  tr record;\n')}  entry ledger_entries;
${when(f.ledger, '  original ledger_entries;\n')}  outcome text;
  wallet_id bigint;
${when(f.ledger, '  wallet_balance numeric(20, 2);\n')}  partner_account bigint;
  signed numeric(20, 2);
  event_id uuid;
${when(f.ledger, "  room jsonb := '{}'::jsonb;\n")}  partner_deltas jsonb := '{}'::jsonb;
  results ${f.answersInArray ? "jsonb[] := '{}'" : "jsonb := '[]'::jsonb"};
${when(f.rowsAfterLoop === true, ROWS_DECLARED)}BEGIN${when(f.ledger, LOCK_TREASURIES_AND_ORIGINALS)}
  FOR t IN
    SELECT x.* FROM jsonb_to_recordset(batch)
${itemRecord(f)}
     ORDER BY x.partner_id, x.user_id, x.item
  LOOP
    outcome := NULL;
    entry := NULL;

    IF t.idempotency_key IS NOT NULL THEN
      IF NOT pg_try_advisory_xact_lock(hashtextextended(t.partner_id::text || '/' || t.idempotency_key, 0)) THEN
        outcome := 'in_progress';
      ELSE
        SELECT request_hash, entry_id INTO stored FROM idempotency_keys WHERE partner_id = t.partner_id AND key = t.idempotency_key;
        IF FOUND THEN
          IF stored.request_hash = t.request_hash THEN
            outcome := 'replay';
            SELECT * INTO entry FROM ledger_entries WHERE id = stored.entry_id;
          ELSE
            outcome := 'conflict';
          END IF;
        END IF;
      END IF;
    END IF;
${when(f.ledger, refuseReversedOrOverLimit(f.rowsAfterLoop === true))}
    IF outcome IS NULL THEN
      IF t.direction = 'to_user' THEN
        INSERT INTO accounts AS a (partner_id, kind, user_id, balance) VALUES (t.partner_id, 'user', t.user_id, t.coins)
          ON CONFLICT (partner_id, user_id) WHERE kind = 'user'
          DO UPDATE SET balance = a.balance + EXCLUDED.balance, updated_at = now()
          RETURNING ${wallet};
        signed := t.coins;
      ELSE
        UPDATE accounts a SET balance = a.balance - t.coins, updated_at = now()
         WHERE a.partner_id = t.partner_id AND a.kind = 'user' AND a.user_id = t.user_id AND a.balance >= t.coins
         RETURNING ${wallet};
        IF NOT FOUND THEN
          outcome := 'insufficient';
        END IF;
        signed := -t.coins;
      END IF;
    END IF;

    IF outcome IS NULL THEN
${when(
  f.ledger,
  `      IF room ? t.partner_id::text THEN
        room := jsonb_set(room, ARRAY[t.partner_id::text], to_jsonb((room ->> t.partner_id::text)::numeric - signed));
      END IF;
`,
)}      SELECT a.id INTO partner_account FROM accounts a
       WHERE a.partner_id = t.partner_id AND a.kind = 'partner' AND a.shard = use_shard;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'partner % has no issuance account shard %', t.partner_id, use_shard;
      END IF;
${f.rowsAfterLoop ? ENTRY_AND_POSTINGS_GATHERED : entryAndPostingsInserted(f)}
${f.ledger ? PARTNER_DELTAS_WITH_ISSUED_REDEEMED : PARTNER_DELTA}
      event_id := gen_random_uuid();
${outboxRow(f.ledger, f.transferSubject, f.rowsAfterLoop === true)}
      IF t.idempotency_key IS NOT NULL THEN
${
  f.rowsAfterLoop
    ? `        key_partners := key_partners || t.partner_id;
        keys := keys || t.idempotency_key;
        key_hashes := key_hashes || t.request_hash;
        key_entries := key_entries || entry.id;`
    : '        INSERT INTO idempotency_keys (partner_id, key, request_hash, entry_id) VALUES (t.partner_id, t.idempotency_key, t.request_hash, entry.id);'
}
      END IF;
      outcome := 'done';
    END IF;

    results := results || jsonb_build_object(
      'item', t.item, 'outcome', outcome, 'entry', ${
        f.ledger
          ? `CASE
        WHEN entry.id IS NULL THEN NULL
        WHEN outcome = 'replay' THEN to_jsonb(entry) || jsonb_build_object(
          'reversed', EXISTS (SELECT 1 FROM ledger_reversals WHERE original_id = entry.id))
        ELSE to_jsonb(entry) END);`
          : 'CASE WHEN entry.id IS NULL THEN NULL ELSE to_jsonb(entry) END);'
      }
  END LOOP;
${when(f.rowsAfterLoop === true, ROWS_WRITTEN)}
${f.ledger ? APPLY_PARTNER_DELTAS_WITH_ISSUED_REDEEMED : APPLY_PARTNER_DELTAS}

  RETURN ${f.answersInArray ? 'to_jsonb(results)' : 'results'};
END
$fn$`;
  return f.keys === 'one-letter' ? withOneLetterKeys(sql) : sql;
}

/** 1.0.0's function reads its items' fields, and answers each item's number, under one-letter keys. */
function withOneLetterKeys(sql: string): string {
  return sql
    .replace(
      /\b([tx])\.(\w+)\b/g,
      (_ref, record: string, name: string) => `${record}.${ONE_LETTER[name] ?? name}`,
    )
    .replace("'item', t.i,", "'i', t.i,");
}
