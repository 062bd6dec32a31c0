import { z } from 'zod';
import type { Operation } from './operation.ts';

type Issue = z.core.$ZodRawIssue;

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

const FORMAT_TEXT: Record<string, string> = {
  email: 'must be a valid email',
  guid: 'must be a valid GUID',
  uuid: 'must be a valid GUID',
  url: 'must be a valid URL',
  date: 'must be a valid date (YYYY-MM-DD)',
  datetime: 'must be a valid ISO 8601 timestamp',
};

/** Zod's type names that are not the words a partner would use. */
const TYPE_TEXT: Record<string, string> = {
  record: 'an object',
  map: 'an object',
  int: 'a whole number',
  bigint: 'a whole number',
  nan: 'a number',
  null: 'null',
  undefined: 'absent',
};

/**
 * Every message is the tail of a sentence whose subject is the field's path, so that
 * `formatIssues` reads `applicationName is required` or `users[1].userId must be a valid GUID`,
 * the wording the specification (docs/specification.md) shows.
 */
function describe(iss: Issue): string {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'is required';
      if (typeof iss.input === 'number' && Number.isNaN(iss.input)) return 'must be a number';
      if (iss.expected === 'number' && typeof iss.input === 'number') return 'must be a finite number';
      return `must be ${TYPE_TEXT[iss.expected] ?? article(String(iss.expected))}`;
    case 'invalid_format':
      return FORMAT_TEXT[iss.format] ?? 'is not in the expected format';
    case 'too_small': {
      const min = Number(iss.minimum);
      if (iss.origin === 'string')
        return min <= 1 ? 'must not be empty' : `must be at least ${min} characters`;
      if (iss.origin === 'array') return `must contain at least ${min} item${min === 1 ? '' : 's'}`;
      return iss.inclusive ? `must be at least ${min}` : `must be greater than ${min}`;
    }
    case 'too_big': {
      const max = Number(iss.maximum);
      if (iss.origin === 'string') return `must be at most ${max} characters`;
      if (iss.origin === 'array') return `must contain at most ${max} items`;
      return iss.inclusive ? `must be at most ${max}` : `must be less than ${max}`;
    }
    case 'invalid_value':
      return `must be one of: ${iss.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return 'is not allowed';
    case 'not_multiple_of':
      return `must be a multiple of ${String(iss.divisor)}`;
    default:
      return 'is invalid';
  }
}

z.config({ customError: (iss) => describe(iss) });

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** At most this many problems are named; the rest are counted. */
const MAX_NAMED_PROBLEMS = 20;

/** Each problem as a sentence naming its field; an unknown key is named with its own path. */
function sentences(error: z.ZodError, subject: string): string[] {
  const out: string[] = [];
  for (const issue of error.issues) {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push(`${formatPath([...issue.path, key])} ${issue.message}`);
    } else {
      out.push(`${path || subject} ${issue.message}`);
    }
  }
  return [...new Set(out)];
}

/** Every problem, each a sentence naming its field, joined with "; " (the first ones, then a count). */
export function formatIssues(error: z.ZodError, subject = 'body'): string {
  return joinProblems(sentences(error, subject));
}

function joinProblems(problems: readonly string[]): string {
  const named = problems.slice(0, MAX_NAMED_PROBLEMS).join('; ');
  const more = problems.length - MAX_NAMED_PROBLEMS;
  return more > 0 ? `${named}; and ${more} more problem${more === 1 ? '' : 's'}` : named;
}

export interface RequestParts {
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

export type PartsResult =
  | { ok: true; body: unknown; query: unknown; params: unknown }
  | { ok: false; error: string };

/** A request to an operation without a body may send none, or an empty object, and nothing more. */
const noBody = z.strictObject({});

/**
 * Validates a request's body, query and path parameters against the operation's contract, the
 * same way at the gateway and at a service's bus subject; on failure `error` names every problem
 * of every part.
 */
export function parseRequestParts(op: Operation, parts: RequestParts): PartsResult {
  const problems: string[] = [];
  const parse = (schema: z.ZodType | undefined, value: unknown, subject: string): unknown => {
    const parsed = (schema ?? noBody).safeParse(value);
    if (!parsed.success) problems.push(...sentences(parsed.error, subject));
    return schema && parsed.success ? parsed.data : undefined;
  };
  // No body is an empty one: optional-only bodies (logout) need none, others name what is missing.
  const body = parse(op.schemas.body, parts.body ?? {}, 'body');
  const query = op.schemas.query ? parse(op.schemas.query, parts.query ?? {}, 'query') : undefined;
  const params = op.schemas.params ? parse(op.schemas.params, parts.params ?? {}, 'params') : undefined;
  if (problems.length > 0) return { ok: false, error: joinProblems([...new Set(problems)]) };
  return { ok: true, body, query, params };
}
