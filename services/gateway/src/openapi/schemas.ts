import { docs } from '@coin/contracts';
import { z } from 'zod';

type Json = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** Every `$ref` zod wrote to its `$defs`, pointed at the document's components instead. */
function pointAtComponents(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(pointAtComponents);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string'
        ? value.replace(/^#\/\$defs\//, COMPONENTS)
        : pointAtComponents(value),
    ]),
  );
}

/** Each property described by the contracts' field docs, where it has no description of its own. */
function describeFields(node: Json): Json {
  const props = node.properties as Record<string, Json> | undefined;
  for (const [name, prop] of Object.entries(props ?? {})) {
    if (!prop.description && !prop.$ref && docs.fieldDocs[name]) prop.description = docs.fieldDocs[name];
    describeFields(prop);
  }
  for (const key of ['items', 'additionalProperties'] as const)
    if (node[key] && typeof node[key] === 'object') describeFields(node[key] as Json);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const sub of (node[key] as Json[] | undefined) ?? []) describeFields(sub);
  return node;
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/**
 * The document's named schemas (`components.schemas`), filled as operations are converted: a zod
 * schema carrying `.meta({id})` in the contracts becomes a component of that name and a `$ref` where
 * it is used, so generated clients get named types (`Rule`, `LedgerEntry`) instead of copies.
 */
export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};

  /** A component written here (the envelopes), under its name. */
  add(id: string, schema: Json): { $ref: string } {
    const existing = this.schemas[id];
    if (existing && canonical(existing) !== canonical(schema))
      throw new Error(
        `two different schemas are named ${id} in the reference (one is perhaps used both in a request and in an answer): give one its own id`,
      );
    this.schemas[id] = schema;
    return this.ref(id);
  }

  ref(id: string): { $ref: string } {
    return { $ref: `${COMPONENTS}${id}` };
  }

  /** The JSON Schema of a request (`input`) or an answer (`output`), its named parts as components. */
  jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
    const { $schema: _ignored, $defs, ...rest } = pointAtComponents(converted) as Json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>))
      this.add(id, describeFields(def));
    return describeFields(rest);
  }
}
