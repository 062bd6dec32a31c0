/**
 * One partner call, one trace: the gateway's HTTP span, the NATS CLIENT span, the service's SERVER
 * span and its Postgres queries, linked parent to child. The SDK starts here, with an in-memory
 * exporter, before the services are imported (their pg must be hooked as it loads), as
 * `--import @coin/telemetry/register` does for a real process.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { EVENT_SUBJECTS } from '@coin/contracts';
import { startTracing, type Tracing } from '@coin/telemetry/tracing';
import type { Stack } from '@coin/testing';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exporter = new InMemorySpanExporter();
/** Partner registration: gateway → identity → Postgres, no token needed. */
const ROUTE = '/api/v1/ufel/partners';
const SUBJECT = 'svc.identity.v1.registerPartner';
let tracing: Tracing;
let stack: Stack;
let partners: typeof import('./support/partners.ts');
let rewards: typeof import('./support/rewards.ts');

beforeAll(async () => {
  tracing = await startTracing({
    serviceName: 'e2e',
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  });
  const { stackWith } = await import('./support/stack.ts');
  partners = await import('./support/partners.ts');
  rewards = await import('./support/rewards.ts');
  stack = await stackWith(['identity', 'onboarding', 'wallet', 'rules', 'leaderboard'], {
    AUTH_RATE_LIMIT_MAX: '1000',
  });
});

afterAll(async () => {
  await stack?.stop();
  await tracing?.shutdown();
});

function traceOf(span: ReadableSpan): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === span.spanContext().traceId);
}

function parentOf(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan | undefined {
  const parentId = span.parentSpanContext?.spanId;
  return parentId ? spans.find((s) => s.spanContext().spanId === parentId) : undefined;
}

/** The span itself, its parent, its parent's parent... up to the root. */
function ancestry(span: ReadableSpan, spans: ReadableSpan[]): ReadableSpan[] {
  const chain = [span];
  for (let p = parentOf(span, spans); p; p = parentOf(p, spans)) chain.push(p);
  return chain;
}

/** Spans end asynchronously (the gateway's after the reply is written): wait for the one we need. */
async function waitForSpan(match: (s: ReadableSpan) => boolean): Promise<ReadableSpan> {
  for (let i = 0; i < 100; i++) {
    const found = exporter.getFinishedSpans().find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('span not found');
}

describe('a partner call through the gateway', () => {
  it('is one trace from the HTTP span through the NATS hop to the service Postgres queries', async () => {
    exporter.reset();
    const res = await stack.api.post(ROUTE, partners.partnerBody());
    expect(res.status, res.text).toBe(200);

    const client = await waitForSpan((s) => s.kind === SpanKind.CLIENT && s.name === `${SUBJECT} request`);
    const server = await waitForSpan((s) => s.kind === SpanKind.SERVER && s.name === `${SUBJECT} process`);
    const httpSpan = await waitForSpan(
      (s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === ROUTE && !!s.ended,
    );
    const spans = traceOf(client);

    // The test's own HTTP client is instrumented too (undici): its CLIENT span is the root, the
    // gateway's HTTP span its child across the wire, and the NATS CLIENT span descends from that.
    const caller = parentOf(httpSpan, spans)!;
    expect(caller.kind).toBe(SpanKind.CLIENT);
    expect(caller.parentSpanContext).toBeUndefined();
    expect(String(caller.attributes['url.full'])).toContain(ROUTE);
    expect(httpSpan.parentSpanContext?.isRemote).toBe(true);
    expect(httpSpan.attributes['http.response.status_code']).toBe(200);
    expect(ancestry(client, spans).slice(-2)).toEqual([httpSpan, caller]);

    // The service's SERVER span is the child of the CLIENT span: the context crossed NATS.
    expect(server.spanContext().traceId).toBe(client.spanContext().traceId);
    expect(parentOf(server, spans)).toBe(client);
    expect(server.attributes['messaging.destination.name']).toBe(SUBJECT);

    // The service's Postgres queries are children of its SERVER span.
    const queries = spans.filter(
      (s) => s.attributes['db.system.name'] === 'postgresql' || s.attributes['db.system'] === 'postgresql',
    );
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) expect(ancestry(q, spans)).toContain(server);
    expect(queries.some((q) => parentOf(q, spans) === server && q.kind === SpanKind.CLIENT)).toBe(true);
  });

  it('continues the trace of a caller that sends a W3C traceparent', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    exporter.reset();
    // node:http, which nothing here instruments: the header arrives as the partner sent it.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        new URL(ROUTE, stack.url),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpanId}-01` },
        },
        (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
      );
      req.on('error', reject);
      req.end(JSON.stringify(partners.partnerBody()));
    });
    expect(status).toBe(200);
    const server = await waitForSpan((s) => s.kind === SpanKind.SERVER && s.name === `${SUBJECT} process`);
    expect(server.spanContext().traceId).toBe(traceId);
    const root = ancestry(server, traceOf(server)).at(-1)!;
    expect(root.attributes['http.route']).toBe(ROUTE);
    expect(root.parentSpanContext?.spanId).toBe(callerSpanId);
  });

  it('follows a reward by rule through rules, onboarding and the wallet hop, to the event and its consumer', async () => {
    const partner = await partners.registerAndLogin(stack.api);
    const token = partner.accessToken;
    const [userId] = await rewards.onboardUsers(stack.api, token, 1);
    const ruleName = `traced ${randomBytes(4).toString('hex')}`;
    const created = await rewards.createRule(stack.api, token, {
      name: ruleName,
      coinValue: '25',
      maxNumberOfParticipant: '10',
      condition: 'traced',
    });
    expect(created.status, created.text).toBe(200);
    exporter.reset();

    const res = await rewards.reward(stack.api, token, { userId, ruleName });
    expect(res.status, res.text).toBe(200);

    const rulesServer = await waitForSpan(
      (s) => s.kind === SpanKind.SERVER && s.name === 'svc.rules.v1.rewardUser process',
    );
    const walletClient = await waitForSpan(
      (s) => s.kind === SpanKind.CLIENT && s.name === 'svc.wallet.v1.transferToUser request',
    );
    const walletServer = await waitForSpan(
      (s) => s.kind === SpanKind.SERVER && s.name === 'svc.wallet.v1.transferToUser process',
    );
    const onboardingServer = await waitForSpan(
      (s) => s.kind === SpanKind.SERVER && s.name === 'svc.onboarding.v1.getUser process',
    );
    // The wallet's outbox row kept the transfer's context: its publication joins the same trace. By
    // its subject: the rules service publishes an event of its own in this trace too.
    const published = await waitForSpan(
      (s) =>
        s.kind === SpanKind.PRODUCER &&
        s.attributes['messaging.message.id'] !== undefined &&
        s.attributes['messaging.destination.name'] === EVENT_SUBJECTS.transferCompleted,
    );
    const spans = traceOf(rulesServer);
    const httpSpan = spans.find(
      (s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === '/api/v1/laas/rules/reward',
    )!;
    expect(httpSpan).toBeDefined();

    // gateway HTTP → CLIENT → rules SERVER → CLIENT → wallet SERVER, each the parent of the next.
    const gatewayClient = parentOf(rulesServer, spans)!;
    expect(gatewayClient.name).toBe('svc.rules.v1.rewardUser request');
    expect(gatewayClient.kind).toBe(SpanKind.CLIENT);
    expect(ancestry(gatewayClient, spans)).toContain(httpSpan);
    expect(ancestry(walletClient, spans)).toContain(rulesServer);
    expect(parentOf(walletServer, spans)).toBe(walletClient);
    expect(ancestry(onboardingServer, spans)).toContain(rulesServer);

    // Each service's Postgres queries sit under that service's SERVER span.
    const queriesUnder = (server: ReadableSpan) =>
      spans.filter(
        (s) =>
          s.kind === SpanKind.CLIENT &&
          String(s.name).startsWith('pg.query') &&
          ancestry(s, spans).includes(server),
      );
    expect(queriesUnder(rulesServer).length).toBeGreaterThan(0);
    expect(queriesUnder(walletServer).length).toBeGreaterThan(0);

    expect(published.spanContext().traceId).toBe(rulesServer.spanContext().traceId);
    expect(ancestry(published, traceOf(published))).toContain(walletServer);

    // The leaderboard's consumer of that event continues the trace from the PRODUCER span (the
    // onboarding's tier-earnings consumer continues it too).
    await waitForSpan(
      (s) =>
        s.kind === SpanKind.CONSUMER &&
        s.parentSpanContext?.spanId === published.spanContext().spanId &&
        /^leaderboard-transfers/.test(String(s.attributes['messaging.consumer.group.name'])),
    );
  });
});
