import type { Database } from '@coin/db';
import { type Job, type JobResult, startJobWorker } from '@coin/jobs';
import { createOutboundClient, outboundFailure } from '@coin/outbound';
import type { Logger } from '@coin/telemetry';
import type { WebhooksConfig } from '../config.ts';
import {
  deliveryQueue,
  disableEndpoint,
  finishAttempt,
  isDisabled,
  type Outcome,
  startAttempt,
} from './delivery-queue.ts';
import { webhookAttempts } from './metrics.ts';
import type { PartnerEndpoints } from './partner-endpoints.ts';
import { signedHeaders } from './signing.ts';

interface Delivery {
  partner_id: string;
  body: string;
  /** Set while the claim is an extra attempt the partner asked for: when the schedule resumes. */
  resume_at: string | null;
}

export interface Dispatcher {
  notify(): void;
  stop(): Promise<void>;
}

const GONE = 410;

/**
 * Sends due deliveries through the `webhook-delivery` job queue. Every delivery is its own run with
 * the HTTP timeout, and one partner has at most WEBHOOK_PARTNER_CONCURRENCY of them in flight, so a
 * partner whose endpoint hangs delays only its own deliveries. A failed attempt is retried with the
 * jobs' backoff and the delivery is `failed` (parked) after WEBHOOK_MAX_ATTEMPTS; a 410 Gone
 * disables the endpoint and fails the delivery at once. A partner's extra attempt that fails hands
 * the delivery back to its schedule as it was.
 */
export function startDispatcher(deps: {
  db: Database;
  log: Logger;
  config: WebhooksConfig;
  endpoints: PartnerEndpoints;
}): Dispatcher {
  const { db, log, config } = deps;
  const http = createOutboundClient({
    mode: config.APP_MODE,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    connections: config.WEBHOOK_CONCURRENCY,
  });
  const endpointOf = deps.endpoints.endpointOf;
  const failure = (url: string | null, error: string): Outcome => ({
    url,
    statusCode: null,
    error,
    durationMs: null,
  });

  async function attempt(d: Job<Delivery>): Promise<Outcome> {
    let endpoint: Awaited<ReturnType<typeof endpointOf>>;
    try {
      endpoint = await endpointOf(d.partner_id);
    } catch (err) {
      log.warn({ err, deliveryId: d.id }, 'partner settings unavailable');
      return failure(null, 'partner settings unavailable');
    }
    if (!endpoint.url || !endpoint.secret) return failure(null, 'no webhook URL configured');
    if (await isDisabled(db.em.fork(), d.partner_id, endpoint.url))
      return failure(
        endpoint.url,
        'endpoint disabled after it answered 410 Gone; set a webhook URL or retry the delivery',
      );
    const began = performance.now();
    const durationMs = () => Math.round(performance.now() - began);
    try {
      const res = await http.send(endpoint.url, {
        method: 'POST',
        headers: signedHeaders(endpoint.secret, d.id, d.body),
        body: d.body,
        maxBodyBytes: 4096,
      });
      const ok = res.status >= 200 && res.status < 300;
      return {
        url: endpoint.url,
        statusCode: res.status,
        error: ok ? null : `HTTP ${res.status}`,
        durationMs: durationMs(),
      };
    } catch (err) {
      // The partner sees a class and no duration: the raw error and its timing would tell an
      // attacker which internal ports are open. Operators get both in the log.
      const error = outboundFailure(err);
      log.info({ err, deliveryId: d.id, error, ms: durationMs() }, 'webhook attempt failed');
      return failure(endpoint.url, error);
    }
  }

  async function deliver(d: Job<Delivery>): Promise<JobResult> {
    const em = db.em.fork();
    const n = await startAttempt(em, d.id, d.resume_at !== null);
    const o = await attempt(d);
    await finishAttempt(em, d, n, o);
    if (o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300) {
      webhookAttempts.inc({ outcome: 'delivered' });
      return 'done';
    }
    if (o.statusCode === GONE && o.url) {
      await disableEndpoint(em, d.partner_id, o.url);
      webhookAttempts.inc({ outcome: 'disabled' });
      log.warn({ deliveryId: d.id, url: o.url }, 'endpoint answered 410 Gone; disabled');
      return { park: o.error ?? 'HTTP 410' };
    }
    if (d.resume_at !== null) {
      webhookAttempts.inc({ outcome: 'retry' });
      return { retryAt: d.resume_at, error: o.error ?? 'not delivered' };
    }
    webhookAttempts.inc({ outcome: d.attempts >= config.WEBHOOK_MAX_ATTEMPTS ? 'failed' : 'retry' });
    throw new Error(o.error ?? 'not delivered');
  }

  const worker = startJobWorker<Delivery>({
    db,
    log,
    service: 'webhooks',
    queue: deliveryQueue,
    columns: 'partner_id, body, resume_at::text AS resume_at',
    run: deliver,
    concurrency: config.WEBHOOK_CONCURRENCY,
    perKeyConcurrency: config.WEBHOOK_PARTNER_CONCURRENCY,
    // An attempt still running when its lease ends is one whose process died.
    leaseMs: config.WEBHOOK_TIMEOUT_MS * 2 + config.REQUEST_TIMEOUT_MS,
    pollMs: config.WEBHOOK_POLL_MS,
    maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
    backoff: { baseMs: config.WEBHOOK_RETRY_BASE_MS, capMs: config.WEBHOOK_RETRY_MAX_MS },
  });

  return {
    notify: worker.notify,
    async stop() {
      await worker.stop();
      await http.close();
    },
  };
}
