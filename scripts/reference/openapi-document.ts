import { allOperations } from '@coin/contracts';
import { openApiDocument } from '@coin/gateway/openapi';

export const OPENAPI_PATH = 'docs/reference/openapi.json';

/**
 * The API reference as released: the document the gateway serves at `/openapi.json`, with `make up`'s
 * address as its server (a deployment's gateway names its own `PUBLIC_URL`).
 */
export function referenceDocument(): string {
  const server = {
    url: 'http://127.0.0.1:3000',
    description: 'make up (a deployment serves its own address)',
  };
  return `${JSON.stringify(openApiDocument(allOperations, server), null, 2)}\n`;
}
