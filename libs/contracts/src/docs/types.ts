import { DEFAULT_PAGE_SIZE, paginate } from '../common.ts';

/** One error an operation may answer with: its `appErrorCode`, and when. */
export interface ErrorDoc {
  code: string;
  when: string;
}

/**
 * What the reference says about an operation beyond its schemas. Examples are checked against the
 * operation's own zod schemas by a test, so they cannot drift from what the API accepts and answers.
 */
export interface OperationDocs {
  description: string;
  /** Errors particular to the operation, by HTTP status; the gateway adds those every call can get. */
  errors?: Record<number, ErrorDoc[]>;
  /** A request body the operation accepts. */
  request?: unknown;
  /** Query parameters of an example call. */
  query?: Record<string, string | number>;
  /** The envelope's `data` of a success. */
  response?: unknown;
}

export const EXAMPLE = {
  partnerId: '6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60',
  userId: '0b8f5e1c-4a7e-4d9b-9a59-2f1f0c7b6a11',
  storedUserId: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f',
  ruleId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  tierId: '4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a',
  keyId: '2e4f6a8c-1b3d-4e5f-8a9b-0c1d2e3f4a5b',
  entryId: '7b1e2d3c-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  requestId: '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f',
  deliveryId: '8e9f0a1b-2c3d-4e4f-9a5b-6c7d8e9f0a1b',
  eventId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  at: '2026-11-23T08:30:00.000Z',
} as const;

/** An example list answer: the first and only page, holding `data`. */
export function onePage<T>(data: T[]) {
  return { data, ...paginate(data.length, 1, DEFAULT_PAGE_SIZE) };
}

/** The query of an example call for a list's first page. */
export const FIRST_PAGE = { page: 1, limit: DEFAULT_PAGE_SIZE };
