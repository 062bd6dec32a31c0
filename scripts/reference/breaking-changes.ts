import { admits, inner, type Json, SchemaReader, typesOf, valuesOf } from './schema-shape.ts';

/**
 * A change that can break a partner's code written against the released document: `where` is the
 * operation (`POST /api/v1/laas/tiers`) or webhook (`webhook USER_ONBOARDING`), `field` the part of
 * it (`body.name`, `data.coinsLedger.status`, `query.page`), `what` the change.
 */
export interface BreakingChange {
  where: string;
  field?: string;
  what: string;
}

type Direction = 'request' | 'response';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

class Comparison {
  readonly found: BreakingChange[] = [];
  private readonly released: Json;
  private readonly current: Json;
  private readonly old: SchemaReader;
  private readonly now: SchemaReader;

  constructor(released: Json, current: Json) {
    this.released = released;
    this.current = current;
    this.old = new SchemaReader(released);
    this.now = new SchemaReader(current);
  }

  private report(where: string, field: string | undefined, what: string) {
    this.found.push({ where, ...(field ? { field } : {}), what });
  }

  /** One schema against its released form; a request may not accept less, an answer not say more. */
  schema(where: string, field: string, before: unknown, after: unknown, dir: Direction, depth = 0): void {
    if (depth > 40) return;
    const a = this.old.read(before);
    const b = this.now.read(after);
    const [ta, tb] = [typesOf(this.old, a), typesOf(this.now, b)];
    const lost =
      dir === 'request' ? [...ta].filter((t) => !admits(tb, t)) : [...tb].filter((t) => !admits(ta, t));
    if (lost.length)
      this.report(
        where,
        field,
        dir === 'request'
          ? `type narrowed: ${[...ta].join('|')} → ${[...tb].join('|')}`
          : `type widened: ${[...ta].join('|')} → ${[...tb].join('|')}`,
      );
    const [va, vb] = [valuesOf(this.old, a), valuesOf(this.now, b)];
    if (va && vb) for (const v of va) if (!vb.has(v)) this.report(where, field, `enum value ${v} removed`);
    if (!va && vb && dir === 'request')
      this.report(where, field, `type narrowed: now only ${[...vb].join(', ')}`);
    this.properties(where, field, inner(this.old, a), inner(this.now, b), dir, depth);
    const [ia, ib] = [inner(this.old, a).items, inner(this.now, b).items];
    if (ia && ib) this.schema(where, `${field}[]`, ia, ib, dir, depth + 1);
  }

  private properties(where: string, field: string, a: Json, b: Json, dir: Direction, depth: number) {
    const [pa, pb] = [(a.properties ?? {}) as Json, (b.properties ?? {}) as Json];
    if (!a.properties || !b.properties) return;
    const [ra, rb] = [new Set((a.required ?? []) as string[]), new Set((b.required ?? []) as string[])];
    const at = (name: string) => (field ? `${field}.${name}` : name);
    for (const name of Object.keys(pa)) {
      if (!(name in pb)) {
        this.report(where, at(name), 'field removed');
        continue;
      }
      if (dir === 'request' && !ra.has(name) && rb.has(name)) this.report(where, at(name), 'now required');
      if (dir === 'response' && ra.has(name) && !rb.has(name))
        this.report(where, at(name), 'may now be absent');
      this.schema(where, at(name), pa[name], pb[name], dir, depth + 1);
    }
    if (dir === 'request')
      for (const name of rb) if (!(name in pa)) this.report(where, at(name), 'new required field');
  }

  private parameters(where: string, before: Json, after: Json) {
    // Header names are case-insensitive (1.0.0 wrote `idempotency-key`, now `Idempotency-Key`).
    const key = (p: Json) => `${p.in}.${p.in === 'header' ? String(p.name).toLowerCase() : p.name}`;
    const list = (reader: SchemaReader, op: Json) =>
      new Map(((op.parameters ?? []) as unknown[]).map((p) => reader.deref(p)).map((p) => [key(p), p]));
    const [a, b] = [list(this.old, before), list(this.now, after)];
    for (const [k, p] of a) {
      const q = b.get(k);
      if (!q) {
        if (p.in !== 'path') this.report(where, k, 'parameter removed');
        continue;
      }
      if (!p.required && q.required) this.report(where, k, 'now required');
      this.schema(where, k, p.schema, q.schema, 'request');
    }
    for (const [k, q] of b)
      if (q.required && !a.has(k) && q.in !== 'path') this.report(where, k, 'new required parameter');
  }

  private body(op: Json, reader: SchemaReader): { required: boolean; schema?: unknown } | undefined {
    const body = op.requestBody ? reader.deref(op.requestBody) : undefined;
    if (!body) return undefined;
    const media = (body.content as Json | undefined)?.['application/json'] as Json | undefined;
    return { required: body.required === true, schema: media?.schema };
  }

  private successes(op: Json, reader: SchemaReader): Map<string, unknown> {
    const out = new Map<string, unknown>();
    for (const [status, res] of Object.entries((op.responses ?? {}) as Json))
      if (/^2/.test(status)) {
        const media = (reader.deref(res).content as Json | undefined)?.['application/json'] as
          | Json
          | undefined;
        out.set(status, media?.schema);
      }
    return out;
  }

  operation(where: string, before: Json, after: Json) {
    this.parameters(where, before, after);
    const [ba, bb] = [this.body(before, this.old), this.body(after, this.now)];
    if (bb?.required && !ba) this.report(where, 'body', 'a body is now required');
    if (ba && bb) {
      if (!ba.required && bb.required) this.report(where, 'body', 'now required');
      if (ba.schema && bb.schema) this.schema(where, 'body', ba.schema, bb.schema, 'request');
    }
    const [sa, sb] = [this.successes(before, this.old), this.successes(after, this.now)];
    for (const [status, schema] of sa) {
      if (!sb.has(status)) {
        this.report(where, undefined, `success status ${status} no longer answered`);
        continue;
      }
      if (schema && sb.get(status)) this.schema(where, '', schema, sb.get(status), 'response');
    }
  }

  run(): BreakingChange[] {
    const [pa, pb] = [(this.released.paths ?? {}) as Json, (this.current.paths ?? {}) as Json];
    for (const [path, item] of Object.entries(pa))
      for (const method of METHODS) {
        const before = (item as Json)[method] as Json | undefined;
        if (!before) continue;
        const where = `${method.toUpperCase()} ${path}`;
        const after = (pb[path] as Json | undefined)?.[method] as Json | undefined;
        if (!after) this.report(where, undefined, 'operation removed');
        else this.operation(where, before, after);
      }
    const [wa, wb] = [(this.released.webhooks ?? {}) as Json, (this.current.webhooks ?? {}) as Json];
    for (const [kind, item] of Object.entries(wa)) {
      const where = `webhook ${kind}`;
      const before = (item as Json).post as Json;
      const after = (wb[kind] as Json | undefined)?.post as Json | undefined;
      if (!after) {
        this.report(where, undefined, 'webhook removed');
        continue;
      }
      // A webhook's body is what the partner receives: compared as an answer.
      const [ba, bb] = [this.body(before, this.old), this.body(after, this.now)];
      if (ba?.schema && bb?.schema) this.schema(where, 'body', ba.schema, bb.schema, 'response');
    }
    return this.found;
  }
}

/** Every change from `released` to `current` that can break a partner's code. */
export function breakingChanges(released: Json, current: Json): BreakingChange[] {
  return new Comparison(released, current).run();
}

/** How a change is named in the release notes: the operation and the field, each in backticks. */
export function nameOf(change: BreakingChange): string {
  return `\`${change.where}\`${change.field ? ` \`${change.field}\`` : ''}: ${change.what}`;
}

/**
 * The changes the release notes do not name. A change is named by a list item of the CHANGELOG's
 * `## Unreleased` section that quotes its operation (`` `GET /api/v1/laas/rules` ``) and, for a
 * field, the field (`` `data.status` ``).
 */
export function unnamed(changes: BreakingChange[], changelog: string): BreakingChange[] {
  const start = changelog.indexOf('\n## Unreleased');
  const end = changelog.indexOf('\n## ', start + 1);
  const section = changelog.slice(start, end === -1 ? undefined : end);
  const items = section.split(/\n(?=\s*- )/);
  return changes.filter(
    (c) =>
      !items.some((item) => item.includes(`\`${c.where}\``) && (!c.field || item.includes(`\`${c.field}\``))),
  );
}
