import { z } from 'zod';

/** The most bytes one user's `userData` may take as JSON (UTF-8). */
export const MAX_USER_DATA_BYTES = 16 * 1024;
/** The deepest nesting of objects and arrays inside one user's `userData`. */
export const MAX_USER_DATA_DEPTH = 32;

/** What Postgres's jsonb cannot hold: NUL, and a surrogate without its pair. */
function unstorable(s: string): boolean {
  return s.includes('\u0000') || !s.isWellFormed();
}

const UNSTORABLE = 'must not contain NUL characters or unpaired surrogates';
const TOO_DEEP = `must not be nested more than ${MAX_USER_DATA_DEPTH} levels deep`;

/**
 * The first reason a JSON value cannot be stored, or undefined. The recursion stops at the depth
 * limit, so a hostile nesting cannot exhaust the stack before it is refused.
 */
function problemIn(node: unknown, depth: number): string | undefined {
  if (typeof node === 'string') return unstorable(node) ? UNSTORABLE : undefined;
  if (typeof node !== 'object' || node === null) return undefined;
  if (depth > MAX_USER_DATA_DEPTH) return TOO_DEEP;
  if (Array.isArray(node)) {
    for (const child of node) {
      const problem = problemIn(child, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  const record = node as Record<string, unknown>;
  for (const key in record) {
    if (unstorable(key)) return UNSTORABLE;
    const problem = problemIn(record[key], depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * UTF-8 length of well-formed text (problemIn refused unpaired surrogates): counted, not encoded, so
 * the schema runs in the dashboard's browser bundle too, where there is no Buffer.
 */
function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 2; // a pair: two code units, four bytes
      i++;
    } else if (c >= 0x800) bytes += 2;
    else if (c >= 0x80) bytes += 1;
  }
  return bytes;
}

function problemOf(value: Record<string, unknown>): string | undefined {
  const problem = problemIn(value, 1);
  if (problem) return problem;
  const bytes = utf8Length(JSON.stringify(value));
  if (bytes > MAX_USER_DATA_BYTES)
    return `must be at most ${MAX_USER_DATA_BYTES} bytes as JSON (it is ${bytes})`;
  return undefined;
}

/** A partner's free-form data about one user: any JSON object Postgres can store, bounded in size. */
export const userData = z
  .record(z.string(), z.unknown())
  .check((ctx) => {
    const problem = problemOf(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  })
  .meta({
    description: `Any JSON object, at most ${MAX_USER_DATA_BYTES} bytes as JSON and ${MAX_USER_DATA_DEPTH} levels deep; no NUL character.`,
  });
