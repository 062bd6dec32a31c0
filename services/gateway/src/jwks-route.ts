import type { FastifyInstance } from 'fastify';
import type { VerificationKeys } from './verification-keys.ts';

const JWKS_PATH = '/api/v1/.well-known/jwks.json';

/**
 * Identity's public signing keys as a JSON Web Key Set (RFC 7517, no envelope), for anyone who
 * verifies access tokens: the active key and those still in their overlap after a rotation.
 */
export function registerJwksRoute(app: FastifyInstance, keys: VerificationKeys): void {
  app.get(JWKS_PATH, async (request, reply) => {
    const jwks = await keys.published(request.id);
    reply.header('cache-control', 'public, max-age=60');
    return { keys: jwks.keys };
  });
}
