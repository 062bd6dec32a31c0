import fc from 'fast-check';
import type { FuzzWorld } from './draft.ts';
import { toJsonText } from './draft.ts';
import { type Mutation, pick } from './field-mutations.ts';
import { hostileString, hostileValue } from './hostile.ts';

/** Edits of the serialized bytes: what no JSON encoder would write. */
export const rawEdit = fc
  .tuple(
    fc.constantFrom(
      'duplicate-first',
      'duplicate-last',
      'proto',
      'invalid-utf8',
      'truncate',
      'empty',
      'bom',
      'ws',
    ),
    fc.nat(),
    hostileValue,
  )
  .map(
    ([kind, n, value]): Mutation =>
      (d) => {
        const text = d.body === undefined ? '{}' : toJsonText(d.body);
        const isObject = text.startsWith('{') && text.length > 2;
        const firstKey = isObject ? /^\{("(?:[^"\\]|\\.)*")/.exec(text)?.[1] : undefined;
        const hostile = toJsonText(value) || 'null';
        let out: Buffer;
        switch (kind) {
          case 'duplicate-first':
            out = Buffer.from(firstKey ? `{${firstKey}:${hostile},${text.slice(1)}` : text);
            break;
          case 'duplicate-last':
            out = Buffer.from(firstKey ? `${text.slice(0, -1)},${firstKey}:${hostile}}` : text);
            break;
          case 'proto':
            out = Buffer.from(
              isObject
                ? `{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},${text.slice(1)}`
                : '{"__proto__":{"x":1}}',
            );
            break;
          case 'invalid-utf8': {
            const bytes = Buffer.from(text);
            const quote = bytes.indexOf(0x22, n % Math.max(1, bytes.length));
            const at = quote < 0 ? bytes.length : quote + 1;
            const bad =
              pick([[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80]], n) ??
              [];
            out = Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]);
            break;
          }
          case 'truncate':
            out = Buffer.from(text.slice(0, n % Math.max(1, text.length)));
            break;
          case 'empty':
            out = Buffer.alloc(0);
            break;
          case 'bom':
            out = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
            break;
          default:
            out = Buffer.from(` \n\t${text}\n `);
        }
        d.raw = out;
        if (!d.headers.some(([h]) => h === 'content-type'))
          d.headers.push(['content-type', 'application/json']);
        d.notes.push(`raw ${kind}`);
      },
  );

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/vnd.api+json',
  'application/json-patch+json',
  'application/xml',
  ';',
  '',
];

export const contentType = fc.oneof(fc.constantFrom(...CONTENT_TYPES), fc.constant(null)).map(
  (ct): Mutation =>
    (d) => {
      d.headers = d.headers.filter(([h]) => h !== 'content-type');
      if (ct !== null) d.headers.push(['content-type', ct]);
      if (d.body === undefined && d.raw === undefined) d.raw = Buffer.from('{}');
      d.notes.push(`content-type ${JSON.stringify(ct)}`);
    },
);

export function authMutation(world: FuzzWorld) {
  const [, payload = '', signature = ''] = world.accessToken.split('.');
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const forged = `${b64({ alg: 'HS256', typ: 'JWT' })}.${payload}.${signature}`;
  const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
  const tampered = `${world.accessToken.split('.')[0]}.${b64({ sub: 'someone-else', exp: 9e9 })}.${signature}`;
  // [header, still valid]: the scheme is case-insensitive (RFC 9110); stray spaces may go either way.
  const values: [string | null, boolean | undefined][] = [
    [null, false],
    ['Bearer', false],
    ['Bearer ', false],
    ['Bearer garbage', false],
    [`Basic ${Buffer.from('a:b').toString('base64')}`, false],
    [`bearer ${world.accessToken}`, undefined],
    [`Bearer  ${world.accessToken}`, undefined],
    [`Bearer ${world.accessToken} `, undefined],
    [`Bearer ${world.accessToken}x`, false],
    [`Bearer ${forged}`, false],
    [`Bearer ${unsigned}`, false],
    [`Bearer ${tampered}`, false],
    [`Bearer ${world.apiKey.slice(0, -2)}`, false],
    ['Bearer ck_live_', false],
    [`Bearer ${'a'.repeat(10_000)}`, false],
    [`Bearer ${world.accessToken}, Bearer ${world.otherAccessToken}`, false],
  ];
  return fc.constantFrom(...values).map(
    ([value, valid]): Mutation =>
      (d) => {
        d.headers = d.headers.filter(([h]) => h !== 'authorization');
        if (value !== null) d.headers.push(['authorization', value]);
        d.authenticated = valid;
        d.notes.push(`authorization ${value === null ? 'missing' : JSON.stringify(value.slice(0, 40))}`);
      },
  );
}

export const idempotencyHeader = fc
  .oneof(
    fc.constantFrom('', ' ', 'x'.repeat(255), 'x'.repeat(256), 'internal:reward', 'ключ', 'a\tb'),
    fc.string({ maxLength: 300, unit: fc.constantFrom(...'aZ9-_:./+= ~!') }),
  )
  .chain((key) => fc.tuple(fc.constant(key), fc.boolean()))
  .map(
    ([key, twice]): Mutation =>
      (d) => {
        d.headers = d.headers.filter(([h]) => h !== 'idempotency-key');
        d.headers.push(['idempotency-key', key]);
        if (twice) d.headers.push(['idempotency-key', `${key}-2`]);
        d.notes.push(`idempotency-key ${JSON.stringify(key.slice(0, 40))}${twice ? ' twice' : ''}`);
      },
  );

export const requestId = hostileString.map(
  (id): Mutation =>
    (d) => {
      d.headers.push(['x-request-id', id.replace(/[\r\n\0]/g, '')]);
      d.notes.push('x-request-id');
    },
);

export const route = fc
  .tuple(fc.constantFrom('method', 'trailing-slash', 'upper-case', 'double-slash', 'dot-segment'), fc.nat())
  .map(
    ([kind, n]): Mutation =>
      (d) => {
        if (kind === 'method')
          d.method = pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'], n) ?? 'GET';
        if (kind === 'trailing-slash') d.path = `${d.path}/`;
        if (kind === 'upper-case') d.path = d.path.toUpperCase();
        if (kind === 'double-slash') d.path = d.path.replace('/api/', '//api//');
        if (kind === 'dot-segment') d.path = d.path.replace('/api/v1/', '/api/v1/x/../');
        d.offRoute = kind !== 'trailing-slash';
        d.notes.push(`route ${kind} ${d.method}`);
      },
  );
