import { useState } from 'preact/hooks';
import { AuditTable } from '../audit.tsx';
import { useLoad } from '../load.tsx';
import { api, useSession } from '../session.ts';
import { Alert, Page, Section, Select } from '../ui.tsx';

/** The operations the audit log records, by name (the API's `action` filter). */
const ACTIONS = [
  'inviteMember',
  'revokeInvite',
  'acceptInvite',
  'updateMemberRole',
  'removeMember',
  'createApiKey',
  'revokeApiKey',
  'setWebhook',
  'setTreasury',
  'reverseTransfer',
  'createRule',
  'updateRule',
  'createTier',
];

interface Filter {
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
}

/** A day picked in the form as the start (or the end) of that UTC day. */
const dayEdge = (day: string, end: boolean) =>
  day ? `${day}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : undefined;

export function AuditLog() {
  const session = useSession();
  const [filter, setFilter] = useState<Filter>({});
  // Cursors of the pages before this one: "Newer entries" goes back through them.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    () => api.listAuditLog({ ...filter, cursor, limit: 20 }),
    [JSON.stringify(filter), cursor],
  );
  const members = useLoad(
    () => (session.can('team') ? api.listMembers() : Promise.resolve({ data: [] })),
    [],
  );
  return (
    <Page title="Audit log">
      <p>
        Every change of credentials, webhook, treasury, rules, tiers, reversals and members: who, when, from
        where.
      </p>
      <Section title="Filter">
        <form
          aria-label="Filter the audit log"
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            const v = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
            setFilter({
              action: v.action || undefined,
              actor: v.actor || undefined,
              from: dayEdge(v.from, false),
              to: dayEdge(v.to, true),
            });
            setCursors([undefined]);
          }}
        >
          <Select
            label="Action"
            name="action"
            options={[['', 'All actions'], ...ACTIONS.map((a) => [a, a] as [string, string])]}
          />
          <Select
            label="Member"
            name="actor"
            options={[
              ['', 'Everyone'],
              ...(members.data?.data ?? []).map((m) => [m.id, m.email] as [string, string]),
            ]}
          />
          <div class="field">
            <label for="audit-from">From (UTC day)</label>
            <input id="audit-from" name="from" type="date" />
          </div>
          <div class="field">
            <label for="audit-to">To (UTC day)</label>
            <input id="audit-to" name="to" type="date" />
          </div>
          <button type="submit">Filter</button>
        </form>
      </Section>
      <Section title="Entries, newest first">
        <button type="button" onClick={page.reload}>
          Refresh entries
        </button>
        <Alert>{page.error}</Alert>
        <AuditTable label="Audit entries" rows={page.data?.data} />
        <nav class="pager" aria-label="Audit log pages">
          <button
            type="button"
            disabled={cursors.length <= 1}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Newer entries
          </button>
          <button
            type="button"
            disabled={!page.data?.nextCursor}
            onClick={() => setCursors([...cursors, page.data!.nextCursor!])}
          >
            Older entries
          </button>
        </nav>
      </Section>
    </Page>
  );
}
