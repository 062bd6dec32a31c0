import fc from 'fast-check';
import type { z } from 'zod';

/**
 * Values a field may take that the system already knows (a registered user's id, an existing rule's
 * name), keyed by field name: drawn most of the time so that generated requests reach past the
 * "not found" answers into the services' real paths.
 */
export type Pools = Readonly<Record<string, readonly string[]>>;

interface Def {
  type: string;
  [key: string]: any;
}

interface Check {
  check: string;
  [key: string]: any;
}

const defOf = (schema: z.ZodType): Def => (schema as any)._zod.def;
const checksOf = (d: Def): Check[] => (d.checks ?? []).map((c: any) => c._zod.def);
const isOptional = (schema: z.ZodType): boolean => (schema as any)._zod.optin === 'optional';

/** A JSON value such as a partner would put in free-form `userData`. */
export const jsonValue = fc.jsonValue({ maxDepth: 2 });

/**
 * One arbitrary per pattern: fast-check builds a table of every character of a pattern's classes when
 * it makes one (seconds for a class like `[^\u0000-\u001f]`), and the contracts share a few patterns.
 */
const matchingArbitraries = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: RegExp): fc.Arbitrary<string> {
  const key = `${pattern.source}/${pattern.flags}`;
  const known = matchingArbitraries.get(key);
  if (known) return known;
  const arbitrary = fc.stringMatching(pattern);
  matchingArbitraries.set(key, arbitrary);
  return arbitrary;
}

function stringArbitrary(d: Def): fc.Arbitrary<string> {
  const checks = checksOf(d);
  const min = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum));
  const max = Math.min(120, ...checks.filter((c) => c.check === 'max_length').map((c) => c.maximum));
  const format = d.format ?? checks.find((c) => c.check === 'string_format')?.format;
  const pattern: RegExp | undefined =
    d.pattern ?? checks.find((c) => c.check === 'string_format' && c.format === 'regex')?.pattern;
  switch (format) {
    case 'guid':
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= 254);
    case 'url':
      return fc.webUrl({ validSchemes: ['http', 'https'] }).filter((u) => u.length <= 2048);
    case 'date':
      return fc
        .date({ min: new Date('1930-01-01'), max: new Date('2020-12-31'), noInvalidDate: true })
        .map((t) => t.toISOString().slice(0, 10));
    case 'datetime':
      return fc.date({ noInvalidDate: true }).map((t) => t.toISOString());
    default:
      break;
  }
  if (pattern) return matching(pattern).filter((s) => s.length <= Math.max(max, 30));
  return fc.string({ minLength: Math.min(min, max), maxLength: Math.max(min, max), unit: 'grapheme' });
}

function numberArbitrary(d: Def): fc.Arbitrary<number> {
  const checks = checksOf(d);
  const integer = checks.some((c) => c.check === 'number_format' && /int/.test(c.format));
  const lower = checks.find((c) => c.check === 'greater_than');
  const upper = checks.find((c) => c.check === 'less_than');
  const min = lower ? lower.value + (lower.inclusive ? 0 : integer ? 1 : 0.01) : integer ? -1000 : 0.01;
  const max = upper ? upper.value - (upper.inclusive ? 0 : integer ? 1 : 0.01) : min + 1_000_000;
  if (integer) {
    const small = fc.integer({ min, max: Math.min(max, min + 20) });
    return fc.oneof(small, fc.integer({ min, max: Math.min(max, Number.MAX_SAFE_INTEGER) }));
  }
  // Amounts: whole cents, mostly small enough for a wallet to hold.
  const cents = (lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map((c) => c / 100);
  const lo = Math.ceil(min * 100);
  const hi = Math.floor(Math.min(max, 1e13) * 100);
  return fc.oneof({ weight: 3, arbitrary: cents(lo, Math.min(hi, lo + 5_000)) }, cents(lo, hi));
}

/**
 * An arbitrary of values the zod schema accepts (almost always: cross-field refinements such as
 * `confirmPassword` are left to chance, so a share of "valid" requests exercises them too).
 */
export function validValue(schema: z.ZodType, pools: Pools, field = ''): fc.Arbitrary<unknown> {
  const own = structural(schema, pools, field);
  const known = pools[field];
  if (!known?.length) return own;
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: own });
}

function structural(schema: z.ZodType, pools: Pools, field: string): fc.Arbitrary<unknown> {
  const d = defOf(schema);
  switch (d.type) {
    case 'object': {
      const shape = Object.entries(d.shape as Record<string, z.ZodType>);
      const model = Object.fromEntries(shape.map(([k, v]) => [k, validValue(v, pools, k)]));
      const requiredKeys = shape.filter(([, v]) => !isOptional(v)).map(([k]) => k);
      return fc.record(model, { requiredKeys });
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return validValue(d.innerType, pools, field);
    case 'nullable':
      return fc.oneof(fc.constant(null), validValue(d.innerType, pools, field));
    case 'pipe':
      // A preprocess or transform: generate what its output side accepts.
      return validValue(defOf(d.in).type === 'transform' ? d.out : d.in, pools, field);
    case 'string':
      return stringArbitrary(d);
    case 'number':
      return numberArbitrary(d);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(d.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(d.values as unknown[]));
    case 'array': {
      const checks = checksOf(d);
      const minLength = Math.max(0, ...checks.filter((c) => c.check === 'min_length').map((c) => c.minimum));
      return fc.array(validValue(d.element, pools, field), { minLength, maxLength: minLength + 4 });
    }
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), jsonValue, { maxKeys: 5 });
    case 'union':
      return fc.oneof(...(d.options as z.ZodType[]).map((o) => validValue(o, pools, field)));
    default:
      return jsonValue;
  }
}
