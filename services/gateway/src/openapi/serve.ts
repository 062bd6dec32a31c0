import type { Operation } from '@coin/contracts';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './document.ts';

/**
 * `/openapi.json`, and Swagger UI at `/docs` (with its `/docs/json` and `/docs/yaml`). The document
 * is built on the first request that reads it, not at start: converting every contract's zod
 * schemas to JSON Schema raised the gateway's start-up memory and CPU for a page few requests need.
 */
export async function registerApiDocs(
  app: FastifyInstance,
  operations: readonly Operation[],
  serverUrl: string,
): Promise<void> {
  // @fastify/swagger keeps this object and serves it as it is at the time of a request.
  const document: Record<string, unknown> = {};
  let built = false;
  const build = async () => {
    if (!built)
      Object.assign(document, openApiDocument(operations, { url: serverUrl, description: 'This gateway' }));
    built = true;
  };
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs', uiHooks: { onRequest: build } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => {
    await build();
    return app.swagger();
  });
}
