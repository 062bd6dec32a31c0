import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allOperations,
  bodyLimitOf,
  DEFAULT_BODY_LIMIT_BYTES,
  formatBytes,
  NO_BODY_LIMIT_BYTES,
  onboarding,
  parseRequestParts,
} from '../src/index.ts';

type Schema = Record<string, any>;

/** Text without control characters takes at most 3 bytes a character as JSON (UTF-8), else 6 (`\u0001`). */
const NO_CONTROLS = /\\P\{Cc\}|\[\^\\p\{Cc\}/;

/** The longest text an anchored ASCII pattern such as `^\+[0-9]{1,4}$` matches, over-estimated by 8. */
function longestMatch(pattern: string): number | undefined {
  if (/[*+](?![^[]*\])/.test(pattern.replace(/\\\+/g, ''))) return undefined;
  const counts = [...pattern.matchAll(/\{(\d+)(?:,(\d+))?\}/g)].map((m) => Number(m[2] ?? m[1]));
  return counts.reduce((a, b) => a + b, 0) + 8;
}

function longestText(s: Schema): number | undefined {
  if (s.format === 'uuid') return 38;
  if (s.format === 'date') return 12;
  if (s.maxLength !== undefined) return 2 + (NO_CONTROLS.test(s.pattern ?? '') ? 3 : 6) * s.maxLength;
  return s.pattern ? longestMatch(s.pattern) : undefined;
}

/**
 * The bytes of the largest body a schema takes as JSON.stringify writes it: every optional field
 * present, every text at its longest in its widest characters, every array at its most items.
 * Undefined when nothing bounds it (a free-form object).
 */
function largest(s: Schema, defs: Schema = {}): number | undefined {
  if (s.$ref) return largest(defs[s.$ref.replace('#/$defs/', '')] ?? {}, defs);
  if (s.anyOf || s.oneOf) {
    const each = (s.anyOf ?? s.oneOf).map((o: Schema) => largest(o, defs));
    return each.includes(undefined) ? undefined : Math.max(...each);
  }
  if (s.enum) return Math.max(...s.enum.map((v: unknown) => JSON.stringify(v).length));
  if (s.const !== undefined) return JSON.stringify(s.const).length;
  switch (s.type) {
    case 'string':
      return longestText(s);
    case 'number':
    case 'integer':
      return 24;
    case 'boolean':
      return 5;
    case 'null':
      return 4;
    case 'array': {
      const item = largest(s.items, defs);
      return item === undefined || s.maxItems === undefined ? undefined : 2 + s.maxItems * (item + 1);
    }
    case 'object': {
      if (s.additionalProperties !== false) return undefined;
      let size = 2;
      for (const [key, child] of Object.entries<Schema>(s.properties ?? {})) {
        const value = largest(child, defs);
        if (value === undefined) return undefined;
        size += JSON.stringify(key).length + 1 + value + 1;
      }
      return size;
    }
    default:
      return undefined;
  }
}

const withBody = allOperations.filter((op) => op.http && op.schemas.body);

describe('body limits', () => {
  it("fit each operation's largest valid body, except onboarding's, which bounds it", () => {
    const rows = withBody
      .filter((op) => op !== onboarding.onboardUsers)
      .map((op) => {
        const schema = z.toJSONSchema(op.schemas.body!, { io: 'input', unrepresentable: 'any' }) as Schema;
        return { op: op.name, largest: largest(schema, schema.$defs), limit: bodyLimitOf(op) };
      });
    console.log(rows.map((r) => `${r.op}: largest ${r.largest} bytes, limit ${r.limit}`).join('\n'));
    expect(rows.filter((r) => r.largest === undefined || r.largest > r.limit)).toEqual([]);
    expect(rows.every((r) => r.limit === DEFAULT_BODY_LIMIT_BYTES)).toBe(true);
  });

  it('take 100,000 users with 252 bytes of userData each in one onboarding call', () => {
    const user = (i: number) => ({
      userId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      userData: { note: 'x'.repeat(241) },
    });
    const body = { users: Array.from({ length: 100_000 }, (_, i) => user(i)) };
    expect(JSON.stringify(body.users[0].userData).length).toBe(252);
    const bytes = Buffer.byteLength(JSON.stringify(body));
    console.log(
      `100,000 users with 252 bytes of userData: ${bytes} bytes, limit ${bodyLimitOf(onboarding.onboardUsers)}`,
    );
    expect(parseRequestParts(onboarding.onboardUsers, { body }).ok).toBe(true);
    expect(bytes).toBeLessThanOrEqual(bodyLimitOf(onboarding.onboardUsers));
  });

  it('read no body on a route without one, but room for {}', () => {
    const without = allOperations.filter((op) => op.http && !op.schemas.body);
    expect(without.map(bodyLimitOf).every((l) => l === NO_BODY_LIMIT_BYTES)).toBe(true);
    expect(formatBytes(65536)).toBe('64 KiB');
    expect(formatBytes(32 * 1024 * 1024)).toBe('32 MiB');
    expect(formatBytes(64)).toBe('64 bytes');
  });
});
