import type { Operation } from '@coin/contracts';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from './document.ts';

/**
 * `/openapi.json`, this gateway's reference (its own address as the server). The document is built
 * on the first request that reads it, not at start: converting every contract's zod schemas to JSON
 * Schema raised the gateway's start-up memory and CPU for a page few requests need.
 */
export function registerApiDocs(
  app: FastifyInstance,
  operations: readonly Operation[],
  serverUrl: string,
): void {
  let document: string | undefined;
  app.get('/openapi.json', async (_request, reply) => {
    document ??= JSON.stringify(openApiDocument(operations, { url: serverUrl, description: 'This gateway' }));
    return reply.type('application/json; charset=utf-8').send(document);
  });
  // Swagger UI's address of the document, before the documentation site replaced it.
  app.get('/docs/json', async (_request, reply) => reply.redirect('/openapi.json', 301));
}
