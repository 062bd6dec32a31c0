import fc from 'fast-check';

/**
 * JSON text spliced into a body as is: what `JSON.stringify` cannot produce (`1e999`, nesting deep
 * enough to overflow a recursive encoder, lone surrogate escapes).
 */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Characters a text field must refuse (or, where it documents so, keep as they are). */
export const CONTROL = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u2028',
  '\ufeff',
];

/** Text with what Postgres, terminals and log parsers choke on. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...CONTROL), fc.string({ maxLength: 8 }))
    .map(([a, c, b]) => `${a}${c}${b}`),
  fc.constantFrom(
    '',
    ' ',
    '   \t ',
    'null',
    'undefined',
    'NaN',
    '0',
    '-1',
    '1e309',
    '0x10',
    '1,5',
    "'; DROP TABLE users; --",
    '%00',
    '%s%n',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as literal text
    '${jndi:ldap://x}',
    '{{7*7}}',
    '../../../../etc/passwd',
    '__proto__',
    'constructor',
    '😀👍🏽',
    'ǅǈǋ İı ß',
    'ＡＢＣ',
    '\ud800',
    '\udfff',
    'a\u0000b',
  ),
  fc.integer({ min: 250, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Numbers at and just past the edges of every bound in the contracts. */
export const boundaryNumber: fc.Arbitrary<number | RawJson> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.001,
    0.005,
    0.009,
    0.01,
    0.015,
    1e-9,
    0.1 + 0.2,
    1.005,
    99.999,
    100.1,
    2 ** 31,
    2 ** 32 + 1,
    2 ** 53,
    2 ** 53 + 2,
    999_999_999.99,
    1_000_000_000,
    1_000_000_000.01,
    1e21,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -Number.MAX_VALUE,
  ),
  fc
    .constantFrom(
      '1e999',
      '-1e999',
      '1E400',
      '0.0000000000000000000000001',
      '-0.0',
      '1.0',
      '100.00000000000000001',
    )
    .map((t) => new RawJson(t)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value of another type than the field expects. */
const wrongType: fc.Arbitrary<unknown> = fc
  .constantFrom(null, true, false, [], {}, [1, 2], { a: 1 }, '1', 1, ['x'], { $gt: '' })
  // A fresh copy each time: mutations edit what they are given in place.
  .map((v) => structuredClone(v));

/** A uuid in a form that compares unequal as text: upper or mixed case, braces, urn, spaces. */
export function mangledUuid(uuid: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(uuid.toUpperCase()),
    fc
      .array(fc.boolean(), { minLength: uuid.length, maxLength: uuid.length })
      .map((flips) => [...uuid].map((ch, i) => (flips[i] ? ch.toUpperCase() : ch)).join('')),
    fc.constantFrom(
      `{${uuid}}`,
      `urn:uuid:${uuid}`,
      ` ${uuid} `,
      uuid.replaceAll('-', ''),
      `${uuid}\u0000`,
      uuid.slice(0, -1),
      `${uuid}0`,
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ),
  );
}

/** Nesting deep enough to reach recursive parsers' and encoders' stack limits. */
const deepJson: fc.Arbitrary<RawJson> = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`)
      : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );

/** Many keys or items in one object or array. */
export const wideJson: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 100, max: 5_000 }), fc.boolean())
  .map(([n, asArray]) =>
    asArray
      ? Array.from({ length: n }, (_, i) => i)
      : Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])),
  );

/** Any replacement value for a field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: boundaryNumber },
  { weight: 3, arbitrary: wrongType },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: wideJson },
);
