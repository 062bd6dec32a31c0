import type { FastifyRequest } from 'fastify';
import type { Caller, createAuthenticator } from './authenticate.ts';

export type Authenticator = ReturnType<typeof createAuthenticator>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The partner a partner route's credentials belong to, set before its body is read. */
    caller?: Caller;
  }
}

/**
 * A partner route's first onRequest hook after the per-client limits: the credentials are checked
 * before a byte of the body is read, so a request without valid ones costs no parse.
 */
export function authenticateFirst(authenticate: Authenticator) {
  return async (request: FastifyRequest): Promise<void> => {
    request.caller = await authenticate(request.headers.authorization, String(request.id));
  };
}
