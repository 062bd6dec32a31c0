import { z } from 'zod';
import { text } from './text.ts';

/** Lower-cased once here, so every comparison, key and lookup behind the edge sees one form. */
export const guid = z.guid().toLowerCase();

/** The longest URL a partner may register (redirects, user details, webhook). */
const MAX_URL_LENGTH = 2048;

export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' })
  .max(MAX_URL_LENGTH)
  .regex(/^[^\p{Cc} ]*$/u, { error: 'must not contain spaces or control characters' });

/** A redirect address that need not be http(s) (a mobile app's own scheme). */
export const redirectAddress = text({ max: MAX_URL_LENGTH });

export const email = z.email().max(254);

/** Passwords are hashed, never stored as text: any character counts, spaces included. */
export const MAX_PASSWORD_LENGTH = 128;
export const password = z.string().min(8).max(MAX_PASSWORD_LENGTH);
export const passwordConfirmation = z.string().max(MAX_PASSWORD_LENGTH);

export const emptyObject = z.object({});

export const isoTimestamp = z.string();

/** `page`/`limit` query parameters shared by every list. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};

export const paginationBlock = {
  count: z.number().int(),
  currentpage: z.number().int(),
  nextpage: z.number().int().nullable(),
  prevpage: z.number().int().nullable(),
  lastpage: z.number().int(),
};

/**
 * A page of a list: its `data` and the pagination block, then any fields of the list's own. A page
 * of a named resource is named after it (`RulePage`) in the API reference.
 */
export function pageOf<I extends z.ZodType, E extends Record<string, z.ZodType> = Record<never, never>>(
  item: I,
  extra: E = {} as E,
) {
  const page = z.object({ data: z.array(item), ...paginationBlock, ...extra });
  const id = z.globalRegistry.get(item)?.id;
  return id ? page.meta({ id: `${id}Page`, description: `A page of ${id} items.` }) : page;
}

/** A paged list's schemas: `page`/`limit` and the list's own filters in, a page of `item`s out. */
export function pagedList<I extends z.ZodType, F extends Record<string, z.ZodType> = Record<never, never>>(
  item: I,
  filters: F = {} as F,
) {
  return { query: z.object({ ...pageQuery, ...filters }), response: pageOf(item) };
}

/** The pagination block of the specification (docs/specification.md) for a page of `count` items. */
export function paginate(count: number, page: number, limit: number) {
  const lastpage = Math.max(1, Math.ceil(count / limit));
  return {
    count,
    currentpage: page,
    nextpage: page < lastpage ? page + 1 : null,
    prevpage: page > 1 ? Math.min(page - 1, lastpage) : null,
    lastpage,
  };
}
