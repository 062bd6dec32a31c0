/**
 * JSON Schema read for comparison: `$ref`s followed inside one document, `allOf` merged, so that
 * two documents that say the same thing in another arrangement (an envelope inlined in one, a named
 * component in the other) compare equal.
 */
export type Json = Record<string, unknown>;

export class SchemaReader {
  private readonly doc: Json;

  constructor(doc: Json) {
    this.doc = doc;
  }

  /** The object a `$ref` (or a chain of them) points to inside the document. */
  deref(node: unknown): Json {
    let current = node as Json;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      if (hops > 50) throw new Error(`$ref cycle at ${current.$ref}`);
      const pointer = (current.$ref as string).replace(/^#\//, '').split('/');
      current = pointer.reduce<unknown>(
        (at, key) => (at as Json)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        this.doc,
      ) as Json;
      if (!current) throw new Error(`unresolved $ref ${pointer.join('/')}`);
    }
    return current ?? {};
  }

  /** The schema with its `$ref` followed and its `allOf` parts merged into one. */
  read(node: unknown): Json {
    const schema = this.deref(node);
    const parts = (schema.allOf as unknown[] | undefined)?.map((part) => this.read(part));
    if (!parts) return schema;
    const { allOf: _parts, ...own } = schema;
    return [own, ...parts].reduce(merge, {});
  }
}

/** Two schemas that must both hold: properties merged (each with both), required and types combined. */
function merge(a: Json, b: Json): Json {
  const out: Json = { ...a, ...b };
  if (a.properties || b.properties) {
    const props: Record<string, unknown> = { ...(a.properties as Json) };
    for (const [name, schema] of Object.entries((b.properties ?? {}) as Json))
      props[name] = props[name] ? { allOf: [props[name], schema] } : schema;
    out.properties = props;
  }
  if (a.required || b.required)
    out.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  if (a.type && b.type) {
    const ta = new Set([a.type].flat() as string[]);
    out.type = ([b.type].flat() as string[]).filter(
      (t) => ta.has(t) || (t === 'integer' && ta.has('number')),
    );
  }
  if (a.enum && b.enum) out.enum = (a.enum as unknown[]).filter((v) => (b.enum as unknown[]).includes(v));
  return out;
}

const ALL_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** The JSON types a schema allows (`integer` within `number`). */
export function typesOf(reader: SchemaReader, schema: Json): Set<string> {
  if ('const' in schema) return new Set([jsonType(schema.const)]);
  if (schema.enum) return new Set((schema.enum as unknown[]).map(jsonType));
  if (schema.type) return new Set([schema.type].flat() as string[]);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (branches) return new Set(branches.flatMap((b) => [...typesOf(reader, reader.read(b))]));
  if (schema.properties) return new Set(['object']);
  return new Set(ALL_TYPES);
}

/** The values a schema allows when it lists them (`enum`, `const`), else undefined. */
export function valuesOf(reader: SchemaReader, schema: Json): Set<string> | undefined {
  if ('const' in schema) return new Set([JSON.stringify(schema.const)]);
  if (schema.enum) return new Set((schema.enum as unknown[]).map((v) => JSON.stringify(v)));
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (!branches) return undefined;
  const out = new Set<string>();
  for (const branch of branches) {
    const read = reader.read(branch);
    if (typesOf(reader, read).size === 1 && typesOf(reader, read).has('null')) out.add('null');
    else {
      const values = valuesOf(reader, read);
      if (!values) return undefined;
      for (const v of values) out.add(v);
    }
  }
  return out;
}

/** The one object or array branch of a nullable `anyOf`, to look inside it. */
export function inner(reader: SchemaReader, schema: Json): Json {
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (!branches) return schema;
  const real = branches.map((b) => reader.read(b)).filter((b) => !(b.type === 'null'));
  return real.length === 1 ? real[0] : schema;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether a value of type `t` is one `allowed` admits. */
export function admits(allowed: Set<string>, t: string): boolean {
  return allowed.has(t) || (t === 'integer' && allowed.has('number'));
}
