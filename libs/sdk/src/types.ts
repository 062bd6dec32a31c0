import type { Operation, ResponseOf } from '@coin/contracts';
import type { z } from 'zod';
import type { OperationName, PartnerOperations } from './operations.ts';

type Simplify<T> = { [K in keyof T]: T[K] } & {};
// biome-ignore lint/complexity/noBannedTypes: an operation without that part adds no fields
type InputPart<T> = T extends z.ZodType ? z.input<T> : {};

/** One object with the fields of the path, the query and the body: `{id, status}` for updateRule. */
export type InputOf<O> =
  O extends Operation<infer S>
    ? Simplify<InputPart<S['body']> & InputPart<S['query']> & InputPart<S['params']>>
    : never;

export type OutputOf<O> = ResponseOf<O>;

export interface CallOptions {
  /** Coin movements: sent as `Idempotency-Key`; one is generated when absent. */
  idempotencyKey?: string;
  /** Sent as `x-request-id`; quote it when reporting a problem. */
  requestId?: string;
  signal?: AbortSignal;
}

type Args<O> =
  Record<string, never> extends InputOf<O>
    ? [input?: InputOf<O>, options?: CallOptions]
    : [input: InputOf<O>, options?: CallOptions];

export type Method<O> = (...args: Args<O>) => Promise<OutputOf<O>>;

export type Methods = { [K in OperationName]: Method<PartnerOperations[K]> };

type Out<K extends OperationName> = OutputOf<PartnerOperations[K]>;

/**
 * Operations that answer a page: `{data: [...], nextpage}`, the audit log's `{data: [...], nextCursor}`,
 * or the export's `{entries: [...], nextAfter}`.
 */
export type PagedName = {
  [K in OperationName]: Out<K> extends
    | { data: unknown[]; nextpage: number | null }
    | { data: unknown[]; nextCursor: string | null }
    | { entries: unknown[]; nextAfter: number | null }
    ? K
    : never;
}[OperationName];

export type ItemOf<K extends PagedName> =
  Out<K> extends { data: (infer I)[] } ? I : Out<K> extends { entries: (infer I)[] } ? I : never;
