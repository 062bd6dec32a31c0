import type { ErrorDoc } from './types.ts';

/** Errors of a kind whose code is always the same: one for each case named. */
const casesOf =
  (code: string) =>
  (...cases: string[]): ErrorDoc[] =>
    cases.map((when) => ({ code, when }));

export const notFound = casesOf('NOT_FOUND');
export const duplicate = casesOf('DUPLICATE');
export const unauthorized = casesOf('UNAUTHORIZED');
export const rateLimited = casesOf('RATE_LIMITED');

/** The 404 of every operation on one of the partner's users. */
export const NOT_YOUR_USER = 'the user is not one you onboarded';
