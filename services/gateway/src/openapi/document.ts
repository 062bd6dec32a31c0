import { bodyLimitOf, docs, type Operation, webhooks as webhooksContract } from '@coin/contracts';
import { z } from 'zod';
import { errorResponses } from './responses.ts';

type Json = Record<string, unknown>;

/** The JSON Schema of a zod schema, each property described by the contracts' field docs. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return describeFields(rest);
}

function describeFields(node: Json): Json {
  const props = node.properties as Record<string, Json> | undefined;
  for (const [name, prop] of Object.entries(props ?? {})) {
    if (!prop.description && docs.fieldDocs[name]) prop.description = docs.fieldDocs[name];
    describeFields(prop);
  }
  for (const key of ['items', 'additionalProperties'] as const)
    if (node[key] && typeof node[key] === 'object') describeFields(node[key] as Json);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const sub of (node[key] as Json[] | undefined) ?? []) describeFields(sub);
  return node;
}

function parameters(op: Operation, where: 'path' | 'query', schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input');
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

function operation(op: Operation, method: string): Json {
  const http = op.http!;
  const opDocs = docs.operationDocs[op.name];
  const params = [...parameters(op, 'path', op.schemas.params), ...parameters(op, 'query', op.schemas.query)];
  if (http.idempotent) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  params.push({ $ref: '#/components/parameters/RequestId' });
  const successHeaders: Json = {
    'x-request-id': { $ref: '#/components/headers/RequestId' },
    ...(http.rateLimit === 'auth' ? RATE_LIMIT_HEADERS : {}),
    ...(http.location ? { Location: { $ref: '#/components/headers/OnboardingRequestLocation' } } : {}),
  };
  const success: Json = {
    type: 'object',
    required: ['status', 'message', ...(http.noData ? [] : ['data'])],
    properties: {
      status: { const: 'success' },
      message: { const: http.message },
      ...(http.noData ? {} : { data: jsonSchema(op.schemas.response, 'output') }),
    },
  };
  const example = {
    status: 'success',
    message: http.message,
    ...(http.noData ? {} : { data: opDocs?.response }),
  };
  const isPrimary = method === http.method;
  return {
    summary: http.summary,
    description: opDocs?.description,
    operationId: isPrimary ? op.name : `${op.name}With${method[0]}${method.slice(1).toLowerCase()}`,
    tags: [op.service],
    ...(http.auth === 'partner' ? { security: [{ bearer: [] }] } : {}),
    // The most bytes the body may have; a larger one is answered 413 before it is read.
    'x-body-limit': bodyLimitOf(op),
    parameters: params,
    ...(op.schemas.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: jsonSchema(op.schemas.body, 'input'), example: opDocs?.request },
            },
          },
        }
      : {}),
    responses: {
      [http.statusCode ?? 200]: {
        description: http.message,
        headers: successHeaders,
        content: { 'application/json': { schema: success, example } },
      },
      ...errorResponses(op),
    },
  };
}

function webhooks(): Json {
  const parameters = Object.entries(docs.webhookDocs.headers).map(([name, description]) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  return Object.fromEntries(
    webhooksContract.EVENT_KINDS.map((kind) => {
      const hook = docs.webhookDocs.events[kind];
      const body = webhooksContract.payloadSchemas[kind];
      const operationId = `${kind.toLowerCase().replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}Webhook`;
      return [
        kind,
        {
          post: {
            summary: hook.summary,
            description: hook.description,
            operationId,
            tags: ['webhooks'],
            parameters,
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(body, 'output'), example: hook.example } },
            },
            responses: {
              '2XX': { description: 'Acknowledged: the delivery is done.' },
              '410': { description: 'Gone: disables this URL until you set one again or retry a delivery.' },
              default: { description: 'Anything else, a timeout or a refused connection: retried later.' },
            },
          },
        },
      ];
    }),
  );
}

/** The OpenAPI 3.1 document of the partner API, generated from the contracts. */
export function openApiDocument(operations: readonly Operation[], serverUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    if (!op.http) continue;
    const path = op.http.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    for (const method of [op.http.method, ...(op.http.alsoMethods ?? [])])
      paths[path][method.toLowerCase()] = operation(op, method);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Coin rewards and partner API',
      version: '1.0.0',
      description:
        'Every answer is the envelope `{status, message, data}`; failures carry `data: {errorType, appErrorCode, error}`. Quote the `x-request-id` of a response when reporting a problem.',
    },
    servers: [{ url: serverUrl, description: 'This gateway' }],
    tags: [...new Set(operations.filter((o) => o.http).map((o) => o.service)), 'webhooks'].map((name) => ({
      name,
    })),
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An access token from login (15 minutes), or a secret API key (`ck_live_…`).',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Your key for this coin movement (1 to 255 characters, kept 72 hours): the same key and body replays the first result with `isExisting: true`; the same key with another body is 422 `IDEMPOTENCY_CONFLICT`.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
          example: 'order-1234',
        },
        RequestId: {
          name: 'x-request-id',
          in: 'header',
          required: false,
          description: 'Your id for this call (`[\\w.:-]{1,128}`), echoed back and in every log line.',
          schema: { type: 'string', pattern: '^[\\w.:-]{1,128}$' },
        },
      },
      headers: {
        RequestId: {
          description: 'The call\u2019s id (yours, if you sent a valid one).',
          schema: { type: 'string' },
        },
        RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
        RateLimitLimit: {
          description: 'Calls allowed per window from this address.',
          schema: { type: 'integer' },
        },
        RateLimitRemaining: { description: 'Calls left in this window.', schema: { type: 'integer' } },
        RateLimitReset: { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
        OnboardingRequestLocation: {
          description:
            'The onboarding request: `/api/v1/laas/onboarding-requests/{id}`; `id` is the webhook\u2019s `requestId`.',
          schema: { type: 'string' },
        },
      },
    },
  };
}
