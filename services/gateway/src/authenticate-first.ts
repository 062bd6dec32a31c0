import type { Operation } from '@coin/contracts';
import type { FastifyRequest } from 'fastify';
import type { createAuthenticator } from './authenticate.ts';
import { authorize, type Principal } from './principal.ts';

export type Authenticator = ReturnType<typeof createAuthenticator>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Who a partner route's credentials belong to, set (and authorized) before its body is read. */
    caller?: Principal;
  }
}

/**
 * A partner route's first onRequest hook after the per-client limits: the credentials, and their
 * permission for `op`, are checked before a byte of the body is read, so a request without valid
 * ones costs no parse.
 */
export function authenticateFirst(authenticate: Authenticator, op: Operation) {
  return async (request: FastifyRequest): Promise<void> => {
    const principal = await authenticate(request.headers.authorization, String(request.id));
    authorize(principal, op);
    request.caller = principal;
  };
}
