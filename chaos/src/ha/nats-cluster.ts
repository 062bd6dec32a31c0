import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectBus } from '@coin/bus';
import { freePort, reachable } from '@coin/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { TcpProxy } from './tcp-proxy.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NODES = 3;

interface NatsNode {
  name: string;
  port: number;
  config: string;
  child?: ChildProcess;
  state: 'up' | 'down' | 'paused' | 'cut off';
}

/**
 * NATS as a 3-node JetStream cluster on private ports. Each node reaches each other node's cluster
 * port through a proxy of its own (i to j), so the harness can cut one node off from its peers by
 * holding the routes to and from it while its clients stay connected: a partition, without the
 * network namespaces only root could make. Servers ping every second and give up after three, so a
 * held route is noticed within seconds, as a broken network would be.
 */
export class NatsCluster {
  readonly nodes: NatsNode[];
  /** routes[i][j]: node i's route to node j. */
  private readonly routes: TcpProxy[][];
  private readonly log: string;

  private constructor(nodes: NatsNode[], routes: TcpProxy[][], log: string) {
    this.nodes = nodes;
    this.routes = routes;
    this.log = log;
  }

  static async start(dir: string, server: string): Promise<NatsCluster> {
    const clientPorts = await Promise.all(Array.from({ length: NODES }, () => freePort()));
    const clusterPorts = await Promise.all(Array.from({ length: NODES }, () => freePort()));
    // Advertised to peers for routes they discover by gossip: nothing listens, so every route is
    // one of the configured ones, through its proxy.
    const nowhere = await freePort();
    const routes: TcpProxy[][] = [];
    for (let i = 0; i < NODES; i++) {
      routes.push([]);
      for (let j = 0; j < NODES; j++)
        routes[i].push(await TcpProxy.listen(await freePort(), i === j ? null : clusterPorts[j]));
    }
    const nodes: NatsNode[] = [];
    for (let i = 0; i < NODES; i++) {
      const name = `n${i}`;
      const store = join(dir, 'nats', name);
      mkdirSync(store, { recursive: true });
      const peers = routes[i].filter((_, j) => j !== i).map((p) => `nats-route://127.0.0.1:${p.port}`);
      const config = join(dir, 'nats', `${name}.conf`);
      writeFileSync(
        config,
        [
          `server_name: ${name}`,
          `listen: 127.0.0.1:${clientPorts[i]}`,
          'ping_interval: "1s"',
          'ping_max: 3',
          `jetstream { store_dir: "${store}" }`,
          `cluster { name: chaos, listen: 127.0.0.1:${clusterPorts[i]}, advertise: "127.0.0.1:${nowhere}", routes: [${peers.join(', ')}] }`,
        ].join('\n'),
      );
      nodes.push({ name, port: clientPorts[i], config, state: 'down' });
    }
    const cluster = new NatsCluster(nodes, routes, join(dir, 'nats.log'));
    for (const node of nodes) cluster.launch(node, server);
    for (const node of nodes) while (!(await reachable(cluster.urlOf(node), 4222))) await sleep(200);
    await cluster.jetStreamReady();
    return cluster;
  }

  /** Every node's client URL, comma-separated, as the services are given it. */
  get url(): string {
    return this.nodes.map((n) => this.urlOf(n)).join(',');
  }

  /** Whether any node is down, paused or cut off right now (one node at a time keeps a quorum). */
  get degraded(): boolean {
    return this.nodes.some((n) => n.state !== 'up');
  }

  /** The node leading `stream`'s replicas, from $JS.API.STREAM.INFO (undefined if none answers). */
  async leaderOf(stream: string, namespace: string): Promise<number | undefined> {
    const nc = await connectBus(this.url, 'chaos-leader', namespace);
    try {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info(stream);
      const index = this.nodes.findIndex((n) => n.name === info.cluster?.leader);
      return index < 0 ? undefined : index;
    } catch {
      return undefined;
    } finally {
      await nc.close();
    }
  }

  /** kill -9, down for `downMs`, started again with its store (it catches up from its peers). */
  async kill(index: number, downMs: number, server: string): Promise<void> {
    const node = this.nodes[index];
    const pid = node.child?.pid;
    node.state = 'down';
    if (pid) {
      process.kill(pid, 'SIGKILL');
      while (alive(pid)) await sleep(50);
    }
    await sleep(downMs);
    this.launch(node, server);
    while (!(await reachable(this.urlOf(node), 4222))) await sleep(200);
    node.state = 'up';
  }

  /** SIGSTOP for `forMs`, then SIGCONT: connections open, nothing answered. */
  async pause(index: number, forMs: number): Promise<void> {
    const node = this.nodes[index];
    const pid = node.child?.pid;
    if (!pid) return;
    node.state = 'paused';
    process.kill(pid, 'SIGSTOP');
    await sleep(forMs);
    process.kill(pid, 'SIGCONT');
    node.state = 'up';
  }

  /** The node's routes to and from its peers held for `forMs`; its clients stay connected to it. */
  async partition(index: number, forMs: number): Promise<void> {
    const node = this.nodes[index];
    const cut = this.routes.flatMap((row, i) =>
      row.filter((_, j) => i !== j && (i === index || j === index)),
    );
    node.state = 'cut off';
    for (const p of cut) p.hold();
    await sleep(forMs);
    for (const p of cut) p.release();
    node.state = 'up';
  }

  async close(): Promise<void> {
    for (const node of this.nodes) {
      const pid = node.child?.pid;
      if (!pid || node.child?.exitCode !== null || node.child.signalCode !== null) continue;
      if (node.state === 'paused') process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGTERM');
      while (alive(pid)) await sleep(50);
    }
    for (const row of this.routes) for (const p of row) await p.close();
  }

  private urlOf(node: NatsNode): string {
    return `nats://127.0.0.1:${node.port}`;
  }

  private launch(node: NatsNode, server: string): void {
    const out = openSync(this.log, 'a');
    node.child = spawn(server, ['-c', node.config], { stdio: ['ignore', out, out] });
    node.child.once('error', () => undefined);
    node.state = 'up';
  }

  /** Until the cluster has a JetStream meta leader (account info answers). */
  private async jetStreamReady(): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const nc = await connectBus(this.url, 'chaos-ready', '');
      try {
        const jsm = await jetstreamManager(nc);
        await jsm.getAccountInfo();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`the NATS cluster has no JetStream: ${err}`);
      } finally {
        await nc.close();
      }
      await sleep(500);
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
