import { randomUUID } from 'node:crypto';
import { allOperations, clientKey, NO_BODY_LIMIT_BYTES } from '@coin/contracts';
import { parseJsonText } from '@coin/contracts/validation-pool';
import { AppError } from '@coin/errors';
import { type ProcessContext, startProcess } from '@coin/startup/process';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { startAdminServer } from './admin-server.ts';
import { allowedMethodsOf } from './allowed-methods.ts';
import { createAuthenticator } from './authenticate.ts';
import { continueOnlyWhenRead, refuseDeclaredOversize } from './body-limits.ts';
import { limitEveryClient, perPartnerLimit } from './client-limits.ts';
import { type GatewayConfig, gatewayConfig } from './config.ts';
import { registerDashboardPages } from './dashboard/serve.ts';
import { registerDashboardSession } from './dashboard/session.ts';
import { registerDocsSite } from './docs-site/serve.ts';
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './error-handler.ts';
import { readinessCheck, registerHealthRoutes } from './health.ts';
import { registerJwksRoute } from './jwks-route.ts';
import { largeBodyAdmission, leaveUnparsed, UnparsedJson } from './large-body.ts';
import { registerMetricsRoute, registerObservability } from './observability.ts';
import { registerApiDocs } from './openapi/serve.ts';
import { redisRevocations } from './revocations.ts';
import { registerOperationRoutes } from './routes.ts';
import { securityHeaders } from './security-headers.ts';
import { verificationKeys } from './verification-keys.ts';

export interface Gateway {
  app: FastifyInstance;
  url: string;
  /** The admin port's base URL, when METRICS_PORT is set. */
  adminUrl?: string;
  config: GatewayConfig;
  stop(): Promise<void>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

async function createGateway({ config, log, bus, redis, background }: ProcessContext<GatewayConfig>) {
  const nc = await bus();
  const app: FastifyInstance = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    // A route reads no body unless it says how large one may be (an operation's from its contract).
    bodyLimit: NO_BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    exposeHeadRoutes: false,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    clientErrorHandler,
    // One access-log line per request (onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  });
  // The specification (docs/specification.md) shows create-rule as GET with a JSON body; Fastify
  // parses none unless told. Every other GET route takes none: its limit is NO_BODY_LIMIT_BYTES.
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  app.decorateRequest('caller', undefined);
  // Validation is the contracts' zod (its messages worded as docs/specification.md words them); route
  // schemas are docs.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // A JSON API: anything but application/json is refused with 415.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body is no body (`POST /partners/logout` from clients that always send the header).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    if (leaveUnparsed(request, body as string)) return done(null, new UnparsedJson(body as string));
    const parsed = parseJsonText(body as string, 'body');
    if (parsed.ok) done(null, parsed.value);
    else done(AppError.badRequest(parsed.error), undefined);
  });
  const security = securityHeaders({ contentSecurityPolicy: false });
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(security);
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (reply.statusCode >= 500) request.log.error(line, 'request failed');
    else if (reply.statusCode >= 400 || reply.elapsedTime >= config.ACCESS_LOG_SLOW_MS)
      request.log.info(line, 'request completed');
    else request.log.debug(line, 'request completed');
  });
  // Counted in Redis, so a client gets the limit once, not once per gateway replica. A Redis outage
  // lets requests through (skipOnError): identity's login throttles still bound password guesses,
  // and partners keep working.
  await app.register(rateLimit, {
    global: false,
    timeWindow: config.AUTH_RATE_LIMIT_WINDOW_MS,
    redis: redis(),
    nameSpace: `coin-rate-limit:${config.NATS_NAMESPACE}:`,
    skipOnError: true,
    keyGenerator: (request) => clientKey(request.ip),
    errorResponseBuilder: (_request, context) =>
      AppError.rateLimited('too many requests from this address; slow down', Math.ceil(context.ttl / 1000)),
  });
  limitEveryClient(app, config);
  installErrorHandling(app, allowedMethodsOf(allOperations));
  app.addHook('onRequest', refuseDeclaredOversize);
  continueOnlyWhenRead(app);
  await registerObservability(app);

  registerApiDocs(app, allOperations, config.PUBLIC_URL);

  const services = config.READY_SERVICES
    ? config.READY_SERVICES.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [...new Set(allOperations.map((op) => op.service))];
  // Production keeps the public port to the API, its documentation, /health and a bare /ready;
  // metrics and the replica list are on the admin port. Development serves all on both.
  const readiness = readinessCheck(nc, services);
  const development = config.APP_MODE === 'development';
  registerHealthRoutes(app, readiness, { detailed: development });
  if (development) registerMetricsRoute(app);

  const keys = verificationKeys({ nc, timeoutMs: config.REQUEST_TIMEOUT_MS });
  registerJwksRoute(app, keys);
  const revocations = redisRevocations(redis(), config.NATS_NAMESPACE, log);
  const authenticate = createAuthenticator({
    nc,
    keys,
    timeoutMs: config.REQUEST_TIMEOUT_MS,
    apiKeyCacheMs: config.API_KEY_CACHE_MS,
    apiKeyMissCacheMs: config.API_KEY_MISS_CACHE_MS,
    revocations,
  });
  registerOperationRoutes(app, allOperations, {
    nc,
    config,
    authenticate,
    revocations,
    admitLargeBody: largeBodyAdmission(),
    partnerLimit: perPartnerLimit(app, config),
  });
  // Cookies are the dashboard session's alone: the API takes Bearer credentials only, so its routes
  // neither parse a Cookie header nor run the plugin's hook on every answer.
  await app.register(async (session) => {
    await session.register(cookie);
    registerDashboardSession(session, { nc, config, authenticate, revocations });
  });
  await registerDashboardPages(app);
  await registerDocsSite(app);
  // Stopped before the bus it was opened after: in-flight requests still get their replies.
  background({ stop: () => app.close() }, 'http server');
  await app.ready();
  if (config.METRICS_PORT === undefined) return { app };
  const admin = await startAdminServer({ port: config.METRICS_PORT, host: config.HOST, log, readiness });
  background({ stop: () => admin.close() }, 'admin server');
  const { port } = admin.server.address() as { port: number };
  return { app, adminUrl: `http://127.0.0.1:${port}` };
}

/** Builds the gateway and listens on HOST:PORT (PORT=0 picks a free port, for tests). */
export async function startGateway(env: NodeJS.ProcessEnv = process.env): Promise<Gateway> {
  const config = gatewayConfig(env);
  return startProcess('gateway', config, async (ctx) => {
    const { app, adminUrl } = await createGateway(ctx);
    const url = await app.listen({ port: config.PORT, host: config.HOST });
    app.log.info({ address: url }, 'gateway listening');
    return { app, config, url, adminUrl };
  });
}
