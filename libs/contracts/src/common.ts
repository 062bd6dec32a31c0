import { z } from 'zod';

/** Lower-cased once here, so every comparison, key and lookup behind the edge sees one form. */
export const guid = z.guid().toLowerCase();

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be a valid http(s) URL' }).max(2048);

export const email = z.email().max(254);

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

/** The specification's pagination block for a page of a list of `count` items. */
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
