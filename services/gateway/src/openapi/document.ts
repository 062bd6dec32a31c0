import { docs, type Operation } from '@coin/contracts';
import { addEnvelopes } from './envelopes.ts';
import { operationObject } from './operation.ts';
import { SchemaComponents } from './schemas.ts';
import { sharedComponents } from './shared-components.ts';
import { WEBHOOK_EVENTS_TAG, webhookEntries } from './webhooks.ts';

type Json = Record<string, unknown>;

export interface Server {
  url: string;
  description: string;
}

/** The OpenAPI 3.1 document of the partner API, generated from the contracts. */
export function openApiDocument(operations: readonly Operation[], server: Server): Json {
  const components = new SchemaComponents();
  addEnvelopes(components);
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    if (!op.http) continue;
    const path = op.http.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    for (const method of [op.http.method, ...(op.http.alsoMethods ?? [])])
      paths[path][method.toLowerCase()] = operationObject(op, method, components);
  }
  const webhooks = webhookEntries(components);
  const tags = [
    ...new Set(operations.filter((o) => o.http).map((o) => o.service)),
    WEBHOOK_EVENTS_TAG,
  ] as const;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Coin rewards and partner API',
      version: '1.0.0',
      description:
        "Every answer is the envelope `{status, message, data}`; failures carry `data: {errorType, appErrorCode, error}`. Quote the `x-request-id` of a response when reporting a problem. Each partner operation names the permission its credential needs (`x-permission`: an API key holds the scopes chosen at its creation, a session its role's permissions) and whether it also needs a password entered in the last minutes (`x-step-up`); otherwise it answers 403.",
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [server],
    security: [{ bearer: [] }],
    tags: tags.map((name) => ({ name, description: docs.tagDocs[name] })),
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(components.schemas).sort(([a], [b]) => a.localeCompare(b))),
      ...sharedComponents(),
    },
  };
}
