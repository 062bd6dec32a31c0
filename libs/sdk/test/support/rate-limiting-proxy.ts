import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The status the client got: the proxy's 429, or the gateway's answer. */
  status: number;
  at: number;
}

export interface RateLimitingProxy {
  url: string;
  seen: ProxiedRequest[];
  /** The next `count` requests whose path starts with `pathPrefix` get 429 with this `Retry-After`. */
  limit(pathPrefix: string, count: number, retryAfter: string): void;
  close(): Promise<void>;
}

/**
 * A rate limiter in front of the gateway, as a partner meets one at a load balancer or API gateway:
 * it answers 429 in the API's envelope with `Retry-After` when told to, and forwards every other
 * request to the real gateway unchanged.
 */
export async function rateLimitingProxy(target: string): Promise<RateLimitingProxy> {
  const seen: ProxiedRequest[] = [];
  let rule: { pathPrefix: string; count: number; retryAfter: string } | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const record = { method: req.method!, path: req.url!, headers: req.headers, status: 0, at: Date.now() };
      seen.push(record);
      if (rule && rule.count > 0 && req.url!.startsWith(rule.pathPrefix)) {
        rule.count--;
        record.status = 429;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': rule.retryAfter });
        res.end(
          JSON.stringify({
            status: 'failed',
            message: 'too many requests',
            data: { errorType: 'rate_limited', appErrorCode: 'RATE_LIMITED', error: 'slow down' },
          }),
        );
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const answer = await fetch(new URL(req.url!, target), {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      record.status = answer.status;
      const out: Record<string, string> = {};
      answer.headers.forEach((value, key) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(key))
          out[key] = value;
      });
      res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    limit(pathPrefix, count, retryAfter) {
      rule = { pathPrefix, count, retryAfter };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
