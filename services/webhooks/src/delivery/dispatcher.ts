import type { NatsConnection } from '@coin/bus';
import type { Database } from '@coin/db';
import { startPollLoop } from '@coin/events';
import { createOutboundClient } from '@coin/outbound';
import type { Logger } from '@coin/telemetry';
import type { WebhooksConfig } from '../config.ts';
import { webhookAttempts } from './metrics.ts';
import { partnerEndpoints } from './partner-endpoints.ts';
import { signedHeaders } from './signing.ts';

interface Claimed {
  id: string;
  partner_id: string;
  body: string;
  attempts: number;
  max_attempts: number;
}

interface Outcome {
  url: string | null;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
}

export interface Dispatcher {
  notify(): void;
  stop(): Promise<void>;
}

const GONE = 410;

/**
 * Sends due deliveries. A claim counts the attempt and records it (started, no outcome) before
 * anything is sent, and leases the delivery for the attempt's timeout: a process that dies mid-way
 * leaves an attempt whose outcome is unknown, and the delivery is due again when the lease ends.
 * Outcomes are written only by the attempt that still owns the delivery.
 */
export function startDispatcher(deps: {
  orm: Database;
  nc: NatsConnection;
  log: Logger;
  config: WebhooksConfig;
}): Dispatcher {
  const { orm, log, config } = deps;
  const schedule = config.WEBHOOK_RETRY_SCHEDULE_MS;
  // Twice the attempt's timeout: an attempt still running when its lease ends is one whose process died.
  const leaseMs = config.WEBHOOK_TIMEOUT_MS * 2;
  const http = createOutboundClient({
    mode: config.APP_MODE,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    connections: config.WEBHOOK_CONCURRENCY,
  });
  const endpointOf = partnerEndpoints(deps.nc, config.WEBHOOK_PARTNER_CACHE_MS, config.REQUEST_TIMEOUT_MS);

  async function claim(): Promise<Claimed[]> {
    return orm.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<Claimed[]>(
        `UPDATE deliveries SET attempts = attempts + 1, updated_at = now(),
                next_attempt_at = now() + ? * interval '1 millisecond'
          WHERE id IN (SELECT id FROM deliveries
                        WHERE status = 'pending' AND next_attempt_at <= now()
                        ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)
          RETURNING id, partner_id, body, attempts, max_attempts`,
        [leaseMs, config.WEBHOOK_CONCURRENCY],
      );
      if (rows.length) {
        await tx.execute(
          `INSERT INTO delivery_attempts (delivery_id, attempt)
           SELECT d.id, d.attempt FROM jsonb_to_recordset(?::jsonb) AS d(id uuid, attempt int)`,
          [JSON.stringify(rows.map((r) => ({ id: r.id, attempt: r.attempts })))],
        );
      }
      return rows;
    });
  }

  async function attempt(d: Claimed): Promise<Outcome> {
    let endpoint: Awaited<ReturnType<typeof endpointOf>>;
    try {
      endpoint = await endpointOf(d.partner_id);
    } catch (err) {
      return {
        url: null,
        statusCode: null,
        error: `partner settings unavailable: ${(err as Error).message}`,
        durationMs: null,
      };
    }
    if (!endpoint.url || !endpoint.secret)
      return { url: null, statusCode: null, error: 'no webhook URL configured', durationMs: null };
    const [disabled] = await orm.em
      .fork()
      .execute<{ url: string }[]>('SELECT url FROM disabled_endpoints WHERE partner_id = ? AND url = ?', [
        d.partner_id,
        endpoint.url,
      ]);
    if (disabled)
      return {
        url: endpoint.url,
        statusCode: null,
        error: 'endpoint disabled after it answered 410 Gone; set a webhook URL or retry the delivery',
        durationMs: null,
      };
    const began = performance.now();
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
        durationMs: Math.round(performance.now() - began),
      };
    } catch (err) {
      return {
        url: endpoint.url,
        statusCode: null,
        error: (err as Error).message || String(err),
        durationMs: Math.round(performance.now() - began),
      };
    }
  }

  async function record(d: Claimed, o: Outcome): Promise<void> {
    const delivered = o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;
    const gone = o.statusCode === GONE;
    const exhausted = d.attempts >= d.max_attempts || d.attempts >= schedule.length;
    const status = delivered ? 'delivered' : gone || exhausted ? 'failed' : 'pending';
    const delay = status === 'pending' ? schedule[d.attempts] : null;
    await orm.em.fork().transactional(async (tx) => {
      await tx.execute(
        `UPDATE delivery_attempts SET url = ?, finished_at = now(), status_code = ?, error = ?, duration_ms = ?
          WHERE delivery_id = ? AND attempt = ?`,
        [o.url, o.statusCode, o.error, o.durationMs, d.id, d.attempts],
      );
      await tx.execute(
        `UPDATE deliveries
            SET status = ?, last_status_code = ?, last_error = ?, updated_at = now(),
                delivered_at = CASE WHEN ? THEN now() END,
                next_attempt_at = CASE WHEN ?::int IS NULL THEN NULL ELSE now() + ?::int * interval '1 millisecond' END
          WHERE id = ? AND attempts = ? AND status = 'pending'`,
        [status, o.statusCode, o.error, delivered, delay, delay, d.id, d.attempts],
      );
      if (gone && o.url)
        await tx.execute(
          'INSERT INTO disabled_endpoints (partner_id, url) VALUES (?, ?) ON CONFLICT DO NOTHING',
          [d.partner_id, o.url],
        );
    });
    webhookAttempts.inc({
      outcome: delivered ? 'delivered' : gone ? 'disabled' : exhausted ? 'failed' : 'retry',
    });
    if (gone) log.warn({ deliveryId: d.id, url: o.url }, 'endpoint answered 410 Gone; disabled');
  }

  async function dispatchOnce(): Promise<number> {
    const due = await claim();
    await Promise.all(
      due.map(async (d) => {
        try {
          await record(d, await attempt(d));
        } catch (err) {
          log.error({ err, deliveryId: d.id }, 'delivery outcome not recorded; the lease will bring it back');
        }
      }),
    );
    return due.length;
  }

  const loop = startPollLoop({
    once: dispatchOnce,
    intervalMs: config.WEBHOOK_POLL_MS,
    onError: (err) => log.warn({ err }, 'webhook dispatch failed; will retry'),
  });

  return {
    notify: loop.notify,
    async stop() {
      await loop.stop();
      await http.close();
    },
  };
}
