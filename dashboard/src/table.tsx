import type { ComponentChildren } from 'preact';
import { Alert } from './ui.tsx';

export interface Column<T> {
  head: string;
  cell: (row: T, index: number) => ComponentChildren;
}

/** A table with a header row: one column per `columns` entry, one row per item. */
export function DataTable<T>(props: {
  label?: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
}) {
  return (
    <table aria-label={props.label}>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c.head} scope="col">
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows?.map((row, i) => (
          <tr key={props.rowKey(row)}>
            {props.columns.map((c) => (
              <td key={c.head}>{c.cell(row, i)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An id or other machine text, as code (class `id`: the screenshots mask what varies by run). */
export const code = (text: string) => <code class="id">{text}</code>;

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/;

/** Text with the ids in it as code: "reversal of <id>: order cancelled". */
export const withIds = (text: string) => text.split(UUID).map((part, i) => (i % 2 ? code(part) : part));
export const when = (iso: string | null, none = '') => (iso ? new Date(iso).toLocaleString() : none);
/** A moment as a `<time>` element (machine-readable, and masked in the screenshots as it varies). */
export const at = (iso: string | null, none = '') =>
  iso ? <time dateTime={iso}>{new Date(iso).toLocaleString()}</time> : none;

/** A loaded list (see useLoad, usePaged): its error or `failure` if any, then its items by id. */
export function ListTable<T extends { id: string }>(props: {
  list: { data?: { data: T[] }; error?: string };
  failure?: string;
  columns: Column<T>[];
}) {
  return (
    <>
      <Alert>{props.list.error ?? props.failure}</Alert>
      <DataTable rows={props.list.data?.data} rowKey={(row) => row.id} columns={props.columns} />
    </>
  );
}
