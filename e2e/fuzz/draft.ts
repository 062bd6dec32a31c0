import type { HttpMethod, Operation } from '@coin/contracts';
import fc from 'fast-check';
import { RawJson } from './hostile.ts';
import { type Pools, validValue } from './zod-arbitrary.ts';

/** What the fuzzer knows of the stack it runs against: credentials and ids that exist. */
export interface FuzzWorld {
  pools: Pools;
  /** An access token of the partner the fuzzer acts as. */
  accessToken: string;
  /** A secret API key of the same partner. */
  apiKey: string;
  /** An access token of a second partner, whose resources the first must never reach. */
  otherAccessToken: string;
}

/** One request before it is put on the wire; mutations edit it in place. */
export interface Draft {
  op: Operation;
  method: string;
  path: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** `undefined`: no body at all. */
  body: unknown;
  /** Replaces the serialized body when a mutation works on the bytes. */
  raw?: Buffer;
  headers: [string, string][];
  /** Carries a partner's valid credentials: true, false, or undefined where either answer is right. */
  authenticated: boolean | undefined;
  /** Method or path no longer name the operation (the answer is judged without its contract). */
  offRoute: boolean;
  notes: string[];
}

const printableKey = fc.string({
  minLength: 1,
  maxLength: 40,
  unit: fc.constantFrom(...'abcdefXYZ0123-_:.'),
});

/** A partner's own keys, some repeated across requests so that replays and conflicts happen too. */
const idempotencyKey = fc.oneof(fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3'), printableKey);

function credentials(op: Operation, world: FuzzWorld) {
  const bearer = (t: string) => ({ header: `Bearer ${t}`, authenticated: true });
  if (op.http?.auth !== 'partner') {
    return fc.oneof(
      { weight: 5, arbitrary: fc.constant({ header: undefined, authenticated: false }) },
      { weight: 1, arbitrary: fc.constant(bearer(world.accessToken)) },
    );
  }
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(bearer(world.accessToken)) },
    { weight: 2, arbitrary: fc.constant(bearer(world.apiKey)) },
    { weight: 1, arbitrary: fc.constant(bearer(world.otherAccessToken)) },
    { weight: 1, arbitrary: fc.constant({ header: undefined, authenticated: false }) },
  );
}

/** A request to `op` that its contract accepts, as a partner would send it. */
export function validDraft(op: Operation, world: FuzzWorld): fc.Arbitrary<Draft> {
  const http = op.http;
  if (!http) throw new Error(`${op.name} has no HTTP binding`);
  const { pools } = world;
  const part = (s: Operation['schemas']['body']) => (s ? validValue(s, pools) : fc.constant(undefined));
  const methods: HttpMethod[] = [http.method, ...(http.alsoMethods ?? [])];
  return fc
    .record({
      method: fc.constantFrom(...methods),
      params: part(op.schemas.params),
      query: part(op.schemas.query),
      body: part(op.schemas.body),
      auth: credentials(op, world),
      key: http.idempotent ? fc.option(idempotencyKey, { freq: 4 }) : fc.constant(null),
    })
    .map(({ method, params, query, body, auth, key }) => {
      const headers: [string, string][] = [];
      if (auth.header) headers.push(['authorization', auth.header]);
      if (key !== null) headers.push(['idempotency-key', key]);
      if (body !== undefined) headers.push(['content-type', 'application/json']);
      if (body && typeof body === 'object' && 'confirmPassword' in body && 'password' in body)
        (body as Record<string, unknown>).confirmPassword = (body as Record<string, unknown>).password;
      return {
        op,
        method,
        path: http.path,
        params: (params ?? {}) as Record<string, unknown>,
        query: (query ?? {}) as Record<string, unknown>,
        body,
        headers,
        authenticated: auth.authenticated,
        offRoute: false,
        notes: [],
      };
    });
}

const PLACEHOLDER = /"\\u0000raw(\d+)\\u0000"/g;

/** JSON text of a value that may hold RawJson pieces, spliced in verbatim. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return v;
  });
  return text === undefined ? '' : text.replace(PLACEHOLDER, (_m, i) => raws[Number(i)]);
}

function queryText(value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(queryText);
  if (value instanceof RawJson) return [value.text];
  if (value !== null && typeof value === 'object') return [toJsonText(value)];
  return [String(value)];
}

/** encodeURIComponent, except that a lone surrogate goes out as the (invalid) UTF-8 bytes of one. */
function encodePart(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => {
        try {
          return encodeURIComponent(ch);
        } catch {
          return '%ED%A0%80';
        }
      })
      .join('');
  }
}

export interface WireRequest {
  method: string;
  path: string;
  headers: string[];
  body?: Buffer;
}

/** A path parameter's text as it goes out: an array's items joined (`[]` is the empty segment). */
export function paramText(value: unknown): string {
  return queryText(value).join('');
}

export function toWire(d: Draft): WireRequest {
  let path = d.path.replace(/:(\w+)/g, (_m, name: string) => encodePart(paramText(d.params[name])));
  const search = Object.entries(d.query).flatMap(([k, v]) =>
    queryText(v).map((t) => `${encodePart(k)}=${encodePart(t)}`),
  );
  if (search.length) path += `?${search.join('&')}`;
  const body = d.raw ?? (d.body === undefined ? undefined : Buffer.from(toJsonText(d.body)));
  return { method: d.method, path, headers: d.headers.flat(), body };
}
