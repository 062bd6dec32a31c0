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

/** An id or other machine text, as code. */
export const code = (text: string) => <code>{text}</code>;
export const when = (iso: string | null, none = '') => (iso ? new Date(iso).toLocaleString() : none);

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
