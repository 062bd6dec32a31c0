import type { Operation } from '@coin/contracts';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const failureEnvelope = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['failed'] },
    message: { type: 'string' },
    data: {
      type: 'object',
      properties: {
        errorType: { type: 'string' },
        appErrorCode: { type: 'string' },
        error: { type: 'string' },
      },
    },
  },
};

/** The route's schema, used for the OpenAPI document only: validation is the contract's zod. */
export function routeDocs(op: Operation): JsonSchema {
  const http = op.http!;
  const successEnvelope: JsonSchema = {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['success'] },
      message: { type: 'string', examples: [http.message] },
      ...(http.noData ? {} : { data: toJsonSchema(op.schemas.response, 'output') }),
    },
  };
  const headers: JsonSchema | undefined = http.idempotent
    ? { type: 'object', properties: { 'idempotency-key': { type: 'string', maxLength: 255 } } }
    : undefined;
  return {
    summary: http.summary,
    operationId: op.name,
    tags: [op.service],
    ...(http.auth === 'partner' ? { security: [{ bearer: [] }] } : {}),
    ...(op.schemas.body ? { body: toJsonSchema(op.schemas.body, 'input') } : {}),
    ...(op.schemas.query ? { querystring: toJsonSchema(op.schemas.query, 'input') } : {}),
    ...(op.schemas.params ? { params: toJsonSchema(op.schemas.params, 'input') } : {}),
    ...(headers ? { headers } : {}),
    response: { [http.statusCode ?? 200]: successEnvelope, '4XX': failureEnvelope, '5XX': failureEnvelope },
  };
}
