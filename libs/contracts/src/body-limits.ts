import type { Operation } from './operation.ts';

/**
 * The body limit of an operation that takes a body and states none: above the largest valid body of
 * every such operation, which test/body-limits.test.ts computes from the contracts
 * (docs/decisions/2026-11-27-body-limits-per-operation.md).
 */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * What a route without a body reads at most: room for the `{}` some HTTP clients always send, and
 * nothing that could cost a parse.
 */
export const NO_BODY_LIMIT_BYTES = 64;

/** The most bytes a request body to this operation may have; a larger one is answered 413 unread. */
export function bodyLimitOf(op: Operation): number {
  if (!op.schemas.body || !op.http) return NO_BODY_LIMIT_BYTES;
  return op.http.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;
}

/** A limit in the units a partner reads: `64 KiB`, `32 MiB`, `64 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
