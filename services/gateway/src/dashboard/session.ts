import { callOperation, type NatsConnection } from '@coin/bus';
import { bodyLimitOf, formatIssues, identity } from '@coin/contracts';
import { AppError, success } from '@coin/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../authenticate-first.ts';
import type { GatewayConfig } from '../config.ts';
import { type Revocations, revokeCallerToken } from '../revocations.ts';

interface SessionDeps {
  nc: NatsConnection;
  config: GatewayConfig;
  authenticate: Authenticator;
  revocations: Revocations;
}

const SESSION_PATH = '/dashboard/session';
const COOKIE = 'coin_refresh';
const REFRESH_TTL_SECONDS = 30 * 24 * 3600;

const signInBody = identity.login.schemas.body;

/**
 * The dashboard's browser session. The refresh token never reaches script: it lives in an HttpOnly,
 * SameSite=Strict cookie scoped to these routes (Secure outside development), while the page keeps
 * only the short-lived access token in memory and calls the public API with it through the SDK.
 * These routes only carry the refresh token between the cookie and identity's own operations.
 */
export function registerDashboardSession(app: FastifyInstance, deps: SessionDeps): void {
  const secure = deps.config.APP_MODE !== 'development';
  const options = (request: FastifyRequest) => ({
    timeoutMs: deps.config.REQUEST_TIMEOUT_MS,
    requestId: String(request.id),
  });

  function keep(reply: FastifyReply, refreshToken: string): void {
    reply.setCookie(COOKIE, refreshToken, {
      httpOnly: true,
      secure,
      sameSite: 'strict',
      path: SESSION_PATH,
      maxAge: REFRESH_TTL_SECONDS,
    });
  }

  function drop(reply: FastifyReply): void {
    reply.clearCookie(COOKIE, { httpOnly: true, secure, sameSite: 'strict', path: SESSION_PATH });
  }

  app.post(
    SESSION_PATH,
    {
      bodyLimit: bodyLimitOf(identity.login),
      config: { rateLimit: { max: deps.config.AUTH_RATE_LIMIT_MAX } },
    },
    async (request, reply) => {
      const parsed = signInBody.safeParse(request.body ?? {});
      if (!parsed.success) throw AppError.badRequest(formatIssues(parsed.error));
      const { tokens, user } = await callOperation(
        deps.nc,
        identity.login,
        { body: parsed.data, clientIp: request.ip },
        options(request),
      );
      keep(reply, tokens.refreshToken);
      return success('signed in', { accessToken: tokens.accessToken, user });
    },
  );

  app.post(
    `${SESSION_PATH}/refresh`,
    { config: { rateLimit: { max: deps.config.AUTH_RATE_LIMIT_MAX } } },
    async (request, reply) => {
      const refreshToken = request.cookies[COOKIE];
      if (!refreshToken) throw AppError.unauthorized('no dashboard session');
      try {
        const { tokens } = await callOperation(
          deps.nc,
          identity.refreshTokens,
          { body: { refreshToken } },
          options(request),
        );
        keep(reply, tokens.refreshToken);
        return success('session refreshed', { accessToken: tokens.accessToken });
      } catch (err) {
        if (err instanceof AppError && err.status === 401) drop(reply);
        throw err;
      }
    },
  );

  // Authenticated in the handler, after the cookie is dropped: a sign-out with an expired access
  // token still ends the browser's session. The route reads no body (the server's limit).
  app.delete(SESSION_PATH, async (request, reply) => {
    const refreshToken = request.cookies[COOKIE];
    drop(reply);
    const caller = await deps.authenticate(request.headers.authorization, String(request.id));
    await callOperation(
      deps.nc,
      identity.logout,
      { partnerId: caller.partnerId, body: { refreshToken } },
      options(request),
    );
    await revokeCallerToken(deps.revocations, caller);
    return success('signed out', {});
  });
}
