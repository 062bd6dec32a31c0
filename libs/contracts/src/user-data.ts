import { z } from 'zod';

/** The most bytes one user's `userData` may take as JSON (UTF-8). */
export const MAX_USER_DATA_BYTES = 16 * 1024;
/** The deepest nesting of objects and arrays inside one user's `userData`. */
export const MAX_USER_DATA_DEPTH = 32;

/** What Postgres's jsonb cannot hold: NUL, and a surrogate without its pair. */
function unstorable(s: string): boolean {
  return s.includes('\u0000') || !s.isWellFormed();
}

/**
 * The first reason a partner's free-form object cannot be stored, or undefined. Walked without
 * recursion, so a hostile nesting cannot exhaust the stack before its depth is refused.
 */
function problemOf(value: Record<string, unknown>): string | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (typeof node === 'string') {
      if (unstorable(node)) return 'must not contain NUL characters or unpaired surrogates';
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_USER_DATA_DEPTH) return `must not be nested more than ${MAX_USER_DATA_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(node)) {
      if (unstorable(key)) return 'must not contain NUL characters or unpaired surrogates';
      stack.push({ node: child, depth: depth + 1 });
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(value));
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
