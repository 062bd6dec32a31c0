import type { api } from './session.ts';
import { at, code, DataTable } from './table.tsx';

export type AuditEntry = Awaited<ReturnType<typeof api.listAuditLog>>['data'][number];

/** Who made a change: the member's e-mail, or the API key. */
const actorOf = (e: AuditEntry) =>
  e.actor.email ?? (e.actor.apiKeyId ? <>API key {code(e.actor.apiKeyId)}</> : 'the system');

/** Audit entries as a table: when, who, what, from where. */
export function AuditTable(props: { label: string; rows?: AuditEntry[] }) {
  return (
    <DataTable
      label={props.label}
      rows={props.rows}
      rowKey={(e) => e.id}
      columns={[
        { head: 'When', cell: (e) => at(e.at) },
        { head: 'Who', cell: actorOf },
        { head: 'Action', cell: (e) => e.action },
        { head: 'What changed', cell: (e) => e.summary },
        { head: 'From', cell: (e) => (e.clientIp ? code(e.clientIp) : '') },
      ]}
    />
  );
}
