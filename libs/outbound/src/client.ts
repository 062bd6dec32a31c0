import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { type OutboundMode, portRefusal, refusalFor } from './address-policy.ts';

export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

export interface OutboundOptions {
  mode: OutboundMode;
  /** Whole-request budget: connect, headers and body. */
  timeoutMs: number;
  /** Connections per origin. */
  connections?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A DNS lookup that refuses internal addresses. The connection is made to the address checked
 * here, so a name that resolves differently a moment later (DNS rebinding) gains nothing.
 */
function guardedLookup(mode: OutboundMode): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      for (const a of list) {
        const refusal = refusalFor(a.address, mode);
        if (refusal) return callback(new OutboundRefused(`${hostname}: ${refusal}`), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** undici with a bounded pool, timeouts, and the address policy applied after DNS resolution. */
export function createOutboundClient(opts: OutboundOptions) {
  // undici is loaded with the first request, not at start: a wallet whose partners give no
  // user-details URL never sends one, and would hold its heap for nothing.
  let agent: Agent | undefined;
  // Kept: a dynamic import of a loaded module still goes through the loader on every call.
  let undici: Promise<typeof import('undici')> | undefined;

  async function send(
    url: string,
    init: {
      method?: Dispatcher.HttpMethod;
      headers?: Record<string, string>;
      body?: string;
      maxBodyBytes?: number;
    } = {},
  ): Promise<OutboundResponse> {
    const u = new URL(url);
    const port = portRefusal(u, opts.mode);
    if (port) throw new OutboundRefused(`${u.host}: ${port}`);
    const literal = u.hostname.replace(/^\[|\]$/g, '');
    const refusal = /^[\d.]+$|:/.test(literal) ? refusalFor(literal, opts.mode) : undefined;
    if (refusal) throw new OutboundRefused(`${literal}: ${refusal}`);
    undici ??= import('undici');
    const { Agent, request } = await undici;
    agent ??= new Agent({
      connections: opts.connections ?? 16,
      connect: { timeout: opts.timeoutMs, lookup: guardedLookup(opts.mode) },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      keepAliveTimeout: 10_000,
    });
    const res = await request(u, {
      method: init.method ?? 'GET',
      headers: init.headers,
      body: init.body,
      dispatcher: agent,
      signal: AbortSignal.timeout(opts.timeoutMs),
    } as Parameters<typeof request>[1]);
    const limit = init.maxBodyBytes ?? 1024 * 1024;
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > limit) {
        res.body.destroy();
        break;
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') };
  }

  return {
    send,
    close: async () => agent?.close(),
  };
}

export type OutboundClient = ReturnType<typeof createOutboundClient>;
