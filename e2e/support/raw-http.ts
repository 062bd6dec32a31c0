import { connect, type Socket } from 'node:net';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The body's size: declared in Content-Length, or sent chunked without a length. */
  bodyBytes: number;
  framing: 'content-length' | 'chunked';
  /** `head`: only the request line and headers are sent, the body never; `stream`: all of it, as fast as the socket takes it. */
  send: 'head' | 'stream';
  timeoutMs?: number;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** Body bytes written to the socket when the status line arrived. */
  bodyBytesSent: number;
  /** Milliseconds from the first byte sent to the status line. */
  ms: number;
}

/** `[{},{},…]`: JSON that costs a parser the most objects per byte. */
function filler(bytes: number): Buffer {
  const unit = Buffer.from('{},');
  const out = Buffer.alloc(bytes, unit);
  out[0] = 0x5b; // [
  return out;
}

const CHUNK = filler(64 * 1024);

/**
 * One HTTP/1.1 request written by hand on its own connection, so a test sees when the answer
 * arrives relative to the body: a client library sends the body before it reads an answer.
 */
export function rawRequest(base: string, req: RawRequest): Promise<RawAnswer> {
  const url = new URL(base);
  const framing =
    req.framing === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${req.bodyBytes}`;
  const head = [
    `${req.method} ${req.path} HTTP/1.1`,
    `host: ${url.host}`,
    'content-type: application/json',
    framing,
    ...Object.entries(req.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(url.port), url.hostname);
    const started = performance.now();
    let sent = 0;
    let sentAtAnswer: number | undefined;
    let answeredMs = 0;
    let received = Buffer.alloc(0);
    let settled = false;
    const timer = setTimeout(
      () => finish(new Error(`no answer within ${req.timeoutMs ?? 5000} ms (${sent} body bytes sent)`)),
      req.timeoutMs ?? 5000,
    );
    function finish(err?: Error, answer?: RawAnswer) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(answer!);
    }
    function parse(): RawAnswer | undefined {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const [statusLine, ...lines] = received.subarray(0, end).toString().split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? 0);
      const body = received.subarray(end + 4);
      if (body.length < length) return undefined;
      const text = body.subarray(0, length).toString();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return {
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: parsed,
        bodyBytesSent: sentAtAnswer ?? sent,
        ms: answeredMs,
      };
    }
    socket.on('data', (data: Buffer) => {
      if (sentAtAnswer === undefined) {
        sentAtAnswer = sent;
        answeredMs = performance.now() - started;
      }
      received = Buffer.concat([received, data]);
      const answer = parse();
      if (answer) finish(undefined, answer);
    });
    socket.on('error', (err) => {
      // A server that answered and closed while the body was still going: the answer counts.
      const answer = parse();
      finish(answer ? undefined : err, answer);
    });
    socket.on('close', () => {
      const answer = parse();
      finish(answer ? undefined : new Error(`closed without an answer (${sent} body bytes sent)`), answer);
    });
    const writing = () => !settled && !socket.destroyed && sentAtAnswer === undefined;
    async function sendBody() {
      while (writing() && sent < req.bodyBytes) {
        const n = Math.min(CHUNK.length, req.bodyBytes - sent);
        const data = CHUNK.subarray(0, n);
        const ok =
          req.framing === 'chunked'
            ? socket.write(`${n.toString(16)}\r\n`) && socket.write(data) && socket.write('\r\n')
            : socket.write(data);
        sent += n;
        // Each chunk waits for the event loop, so an answer that came is read before the next write
        // (a write after the server closed fails with EPIPE, and the socket goes unread).
        if (!ok) await new Promise((r) => socket.once('drain', r).once('close', r));
        else await new Promise((r) => setImmediate(r));
      }
      if (writing() && req.framing === 'chunked') socket.write('0\r\n\r\n');
    }
    socket.once('connect', () => {
      socket.write(head);
      // A write the closing server refused surfaces as the socket's 'error' above.
      if (req.send === 'stream') sendBody().catch(() => undefined);
    });
  });
}
