import { allOperations, bodyLimitOf, MAX_USER_DATA_BYTES } from '@coin/contracts';
import { describe, expect, it } from 'vitest';
import { servedOpenApi } from './support/served-openapi.ts';

const openapi = servedOpenApi();

type Schema = Record<string, any>;

function requestBodies(): [string, Schema][] {
  return openapi
    .operations()
    .filter((op) => op.requestBody)
    .map((op): [string, Schema] => [op.operationId, op.requestBody.content['application/json'].schema]);
}

/** Every property schema under `schema`, by its path; a free-form object (userData) is not entered. */
function properties(schema: Schema, path: string): [string, Schema][] {
  const out: [string, Schema][] = [[path, schema]];
  for (const [key, child] of Object.entries<Schema>(schema.properties ?? {}))
    out.push(...properties(child, `${path}.${key}`));
  if (schema.items) out.push(...properties(schema.items, `${path}[]`));
  return out;
}

describe('/openapi.json states the input rules of the contracts', () => {
  it('refuses unknown fields in every request body object, at every depth', () => {
    const open = requestBodies().flatMap(([id, body]) =>
      properties(body, id)
        .filter(([, s]) => s.type === 'object' && s.properties && s.additionalProperties !== false)
        .map(([path]) => path),
    );
    expect(open).toEqual([]);
  });

  it('bounds every text field of every request body', () => {
    const unbounded = requestBodies().flatMap(([id, body]) =>
      properties(body, id)
        .filter(([, s]) => s.type === 'string' && s.maxLength === undefined && !s.pattern && !s.enum)
        .map(([path]) => path),
    );
    expect(unbounded).toEqual([]);
  });

  it('states the amount bounds, the userData size and the page size', () => {
    const transfer =
      openapi.doc().paths['/api/v1/laas/coins/transfer-to-user-wallet'].post.requestBody.content[
        'application/json'
      ].schema;
    expect(transfer.properties.coins).toMatchObject({
      minimum: 0.01,
      maximum: 1_000_000_000,
      multipleOf: 0.01,
    });
    expect(transfer.properties.narration).toMatchObject({ maxLength: 500, pattern: '^\\P{Cc}*$' });
    const onboard =
      openapi.doc().paths['/api/v1/laas/onboard-users'].post.requestBody.content['application/json'].schema;
    expect(onboard.properties.users.maxItems).toBe(100_000);
    expect(onboard.properties.users.items.properties.userData.description).toContain(
      String(MAX_USER_DATA_BYTES),
    );
    const limit = openapi
      .doc()
      .paths['/api/v1/laas/rules'].get.parameters.find((p: Schema) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 100 });
  });

  it("states each operation's body limit (x-body-limit) and its 413", () => {
    const stated = new Map(openapi.operations().map((op: any) => [op.operationId, op]));
    for (const op of allOperations.filter((o) => o.http)) {
      const doc = stated.get(op.name) as any;
      expect(doc['x-body-limit'], op.name).toBe(bodyLimitOf(op));
      const failure = doc.responses['413'].content['application/json'].schema;
      expect(failure.allOf[1].properties.data.allOf[1].properties.appErrorCode.enum).toEqual([
        'PAYLOAD_TOO_LARGE',
      ]);
    }
    const onboard = openapi.doc().paths['/api/v1/laas/onboard-users'].post;
    expect(onboard['x-body-limit']).toBe(32 * 1024 * 1024);
    expect(onboard.responses['413'].description).toContain('32 MiB');
    expect(openapi.doc().paths['/api/v1/laas/tiers'].post.responses['413'].description).toContain('64 KiB');
    expect(openapi.doc().paths['/api/v1/laas/tiers'].get.responses['413'].description).toContain(
      'takes none',
    );
  });
});
