import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError } from '@coin/errors';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Built by `make docs` (`npm run docs:build`): docs/site/dist. */
const DIST = fileURLToPath(new URL('../../../../docs/site/dist/', import.meta.url));

/**
 * Nothing from another origin and no framing. VitePress's pages and Redoc's reference carry inline
 * scripts and styles (the colour scheme, the hydration data), and Redoc searches in a blob worker.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The documentation site: partner guides, the API reference (Redoc) and the SDK, at /docs/. */
export async function registerDocsSite(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', CSP);
      return payload;
    });
    if (!existsSync(`${DIST}index.html`)) {
      const notBuilt = async () => {
        throw AppError.unavailable('the documentation site is not built: run make docs');
      };
      scope.get('/docs', notBuilt);
      scope.get('/docs/*', notBuilt);
      return;
    }
    await scope.register(fastifyStatic, { root: DIST, prefix: '/docs/', maxAge: '5m' });
    // The home page, at /docs and /docs/ (the gateway ignores trailing slashes).
    scope.get('/docs', async (_request, reply) => reply.sendFile('index.html', DIST));
  });
}
