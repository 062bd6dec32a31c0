import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder the harness controls, written on node:net rather than taken from npm: the
 * packages that forward (node-tcp-proxy, tcp-proxy.js) cannot re-point live or hold traffic, and
 * Toxiproxy needs its own server binary, which no registry here ships. Three moves are enough:
 * `point` (the read-write endpoint moved to a promoted standby, as the operator's Service does),
 * `hold` (a partition: connections stay open and nothing crosses until `release`), and `cut`
 * (every open connection closed, as when the process behind it vanished).
 */
export class TcpProxy {
  readonly port: number;
  private target: number | null;
  private held = false;
  private readonly server: Server;
  private readonly pairs = new Set<Pair>();
  private readonly waiting = new Set<() => void>();

  private constructor(port: number, target: number | null, server: Server) {
    this.port = port;
    this.target = target;
    this.server = server;
  }

  static async listen(port: number, target: number | null): Promise<TcpProxy> {
    const server = createServer({ pauseOnConnect: true });
    const proxy = new TcpProxy(port, target, server);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get pointsAt(): number | null {
    return this.target;
  }

  /** New connections go to `target` (null: refused); open ones are closed, as after a failover. */
  point(target: number | null): void {
    this.target = target;
    this.cut();
  }

  cut(): void {
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream?.destroy();
    }
    this.pairs.clear();
  }

  /** Nothing crosses either way, open connections stay open, new ones wait: a partition. */
  hold(): void {
    this.held = true;
    for (const p of this.pairs) {
      p.client.pause();
      p.upstream?.pause();
    }
  }

  release(): void {
    this.held = false;
    for (const p of this.pairs) {
      for (const [to, chunk] of p.queued.splice(0)) to.write(chunk);
      p.client.resume();
      p.upstream?.resume();
    }
    for (const go of [...this.waiting]) go();
    this.waiting.clear();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    const pair: Pair = { client, queued: [] };
    this.pairs.add(pair);
    client.on('error', () => undefined);
    client.once('close', () => {
      pair.upstream?.destroy();
      this.pairs.delete(pair);
    });
    const open = () => {
      if (client.destroyed) return;
      if (this.target === null) return void client.destroy();
      const upstream = connect(this.target, '127.0.0.1');
      pair.upstream = upstream;
      upstream.on('error', () => undefined);
      upstream.once('close', () => client.destroy());
      this.forward(pair, client, upstream);
      this.forward(pair, upstream, client);
      if (!this.held) client.resume();
    };
    if (this.held) this.waiting.add(open);
    else open();
  }

  /**
   * By hand, not pipe(): pipe resumes its source when the destination drains, which would let
   * bytes through a hold. A chunk read as the hold began waits for the release.
   */
  private forward(pair: Pair, from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (this.held) return void pair.queued.push([to, chunk]);
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => {
          if (!this.held) from.resume();
        });
      }
    });
  }
}

interface Pair {
  client: Socket;
  upstream?: Socket;
  queued: [Socket, Buffer][];
}
