import { MAX_USER_DATA_BYTES } from '@coin/contracts';
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
});
