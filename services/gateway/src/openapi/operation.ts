import { bodyLimitOf, docs, type Operation } from '@coin/contracts';
import type { z } from 'zod';
import { successSchema } from './envelopes.ts';
import { errorResponses } from './responses.ts';
import type { SchemaComponents } from './schemas.ts';

type Json = Record<string, unknown>;

function parameters(
  op: Operation,
  where: 'path' | 'query',
  schema: z.ZodType | undefined,
  components: SchemaComponents,
): Json[] {
  if (!schema) return [];
  const js = components.jsonSchema(schema, 'input');
  const required = new Set((js.required as string[] | undefined) ?? []);
  return Object.entries((js.properties as Record<string, Json>) ?? {}).map(([name, prop]) => {
    const { description, ...rest } = prop;
    const example = docs.operationDocs[op.name]?.query?.[name];
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      description,
      schema: rest,
      ...(example === undefined ? {} : { example }),
    };
  });
}

const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': { $ref: '#/components/headers/RateLimitLimit' },
  'x-ratelimit-remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'x-ratelimit-reset': { $ref: '#/components/headers/RateLimitReset' },
};

/**
 * The OpenAPI operation of `op` under `method`. A method of `alsoMethods` is the same operation kept because
 * docs/specification.md shows it ("2. Create rule": a GET with a JSON body): deprecated, pointing to the
 * primary one.
 */
export function operationObject(op: Operation, method: string, components: SchemaComponents): Json {
  const http = op.http!;
  const opDocs = docs.operationDocs[op.name];
  const params = [
    ...parameters(op, 'path', op.schemas.params, components),
    ...parameters(op, 'query', op.schemas.query, components),
  ];
  if (http.idempotent) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  params.push({ $ref: '#/components/parameters/RequestId' });
  const successHeaders: Json = {
    'x-request-id': { $ref: '#/components/headers/RequestId' },
    ...(http.rateLimit === 'auth' ? RATE_LIMIT_HEADERS : {}),
    ...(http.location ? { Location: { $ref: '#/components/headers/OnboardingRequestLocation' } } : {}),
  };
  const data = http.noData ? undefined : components.jsonSchema(op.schemas.response, 'output');
  const example = {
    status: 'success',
    message: http.message,
    ...(http.noData ? {} : { data: opDocs?.response }),
  };
  const isPrimary = method === http.method;
  const description = isPrimary
    ? opDocs?.description
    : `Deprecated: use \`${http.method}\` at the same path (\`${op.name}\`), which takes the same body; this ${method} form is the specification's, kept working, but \`fetch\` and browsers cannot send a body with ${method}.`;
  return {
    summary: http.summary,
    description,
    operationId: isPrimary ? op.name : `${op.name}With${method[0]}${method.slice(1).toLowerCase()}`,
    ...(isPrimary ? {} : { deprecated: true }),
    tags: [op.service],
    // Partner operations take the document's default (a bearer token); open ones say they need none.
    ...(http.auth === 'partner' ? {} : { security: [] }),
    // The most bytes the body may have; a larger one is answered 413 before it is read.
    'x-body-limit': bodyLimitOf(op),
    // What the credential must hold (permissions.ts), and whether a recent password is needed too.
    ...(http.permission ? { 'x-permission': http.permission } : {}),
    ...(http.stepUp ? { 'x-step-up': true } : {}),
    parameters: params,
    ...(op.schemas.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: components.jsonSchema(op.schemas.body, 'input'),
                example: opDocs?.request,
              },
            },
          },
        }
      : {}),
    responses: {
      [http.statusCode ?? 200]: {
        description: http.message,
        headers: successHeaders,
        content: { 'application/json': { schema: successSchema(components, http.message, data), example } },
      },
      ...errorResponses(op, components),
    },
  };
}
