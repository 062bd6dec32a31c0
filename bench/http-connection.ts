import { connect, type Socket } from 'node:net';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');
/** A request nobody answers fails instead of holding its client past the run. */
const ANSWER_TIMEOUT_MS = 30_000;

/**
 * One keep-alive HTTP/1.1 connection of the load generator, one request at a time, answering each
 * response's status. It reads only what a closed loop needs (the status line and a Content-Length
 * body), so the generator takes little of the machine it measures: less CPU per request than
 * undici's `dispatch` or `request` (docs/decisions/2026-11-24-bench-http-client.md).
 */
export class HttpConnection {
  private readonly socket: Socket;
  private received: Buffer = Buffer.alloc(0);
  private pending?: { resolve(status: number): void; reject(err: Error): void; timer: NodeJS.Timeout };

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('the server closed the connection')));
  }

  static open(host: string, port: number): Promise<HttpConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host);
      socket.once('connect', () => {
        socket.off('error', reject);
        resolve(new HttpConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  send(request: LoadRequest): Promise<number> {
    const body = request.body ?? '';
    let head = `${request.method} ${request.path} HTTP/1.1\r\nhost: load\r\n`;
    for (const [name, value] of Object.entries(request.headers)) head += `${name}: ${value}\r\n`;
    if (request.body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error('no answer in time')), ANSWER_TIMEOUT_MS);
      this.pending = { resolve, reject, timer };
      this.socket.write(`${head}\r\n${body}`);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
    const headEnd = this.received.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.received.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.fail(new Error(`a response without Content-Length: ${head.split('\r\n')[0]}`));
      return;
    }
    const end = headEnd + HEAD_END.length + Number(length[1]);
    if (this.received.length < end) return;
    this.received = this.received.subarray(end);
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.resolve(Number(head.slice(9, 12)));
  }

  private fail(err: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    this.socket.destroy();
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.reject(err);
  }
}
