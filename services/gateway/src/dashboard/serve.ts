import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError } from '@coin/errors';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Built by `make install` (`npm run build:dashboard`): dashboard/dist. */
const DIST = fileURLToPath(new URL('../../../../dashboard/dist/', import.meta.url));

/**
 * No inline script or style, nothing from another origin, no framing: the page's only scripts
 * are the built bundle's files, and it talks only to this origin.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The partner dashboard: its files, and index.html for every page path (client-side routes). */
export async function registerDashboardPages(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', CSP);
      return payload;
    });
    if (!existsSync(`${DIST}index.html`)) {
      const notBuilt = async () => {
        throw AppError.unavailable('the dashboard is not built: run make install (npm run build:dashboard)');
      };
      scope.get('/dashboard', notBuilt);
      scope.get('/dashboard/*', notBuilt);
      return;
    }
    await scope.register(fastifyStatic, {
      root: `${DIST}assets`,
      prefix: '/dashboard/assets/',
      immutable: true,
      maxAge: '365d',
    });
    const page = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html', DIST);
    scope.get('/dashboard', page);
    scope.get('/dashboard/*', page);
  });
}
