import { z } from 'zod';

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

/**
 * Every message is the tail of a sentence whose subject is the field's path, so that
 * `formatIssue` reads `applicationName is required` or `users[1].userId must be a valid GUID`,
 * the wording the specification shows.
 */
function describe(iss: Issue): string {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'is required';
      if (iss.expected === 'number' && typeof iss.input === 'number') return 'must be a finite number';
      return `must be ${article(String(iss.expected))}`;
    case 'invalid_format':
      return FORMAT_TEXT[iss.format] ?? `must be a valid ${iss.format}`;
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
    case 'not_multiple_of':
      return `must be a multiple of ${String(iss.divisor)}`;
    default:
      return 'is invalid';
  }
}

z.config({ customError: (iss) => describe(iss) });

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** The first problem, as one sentence naming the field. */
export function formatIssue(error: z.ZodError, subject = 'body'): string {
  const issue = error.issues[0];
  if (!issue) return `${subject} is invalid`;
  const path = formatPath(issue.path);
  return `${path || subject} ${issue.message}`;
}
