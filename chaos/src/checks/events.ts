import { connectBus, namesOf } from '@coin/bus';
import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { type CheckResult, check } from './check.ts';

/**
 * Every event stored once in the events stream, whatever leader changes it went through: the
 * outbox publishes each with its id as Nats-Msg-Id and publishes it again until JetStream
 * acknowledges it, so a leader that lost the first publish's deduplication would store it twice,
 * and a consumer that keeps only its progress through the stream would apply it twice. Whether a
 * consumer applied anything twice is the boards' and webhooks' checks against the ledger.
 */
export async function eventChecks(env: NodeJS.ProcessEnv): Promise<CheckResult[]> {
  const nc = await connectBus(env.NATS_URL!, 'chaos-events', env.NATS_NAMESPACE!);
  const seen = new Map<string, number[]>();
  let stored = 0;
  const replicas: string[] = [];
  try {
    const jsm = await jetstreamManager(nc);
    const stream = await jsm.streams.info(namesOf(nc).stream);
    replicas.push(`stream ${stream.config.name} at ${stream.config.num_replicas}`);
    for await (const c of jsm.consumers.list(namesOf(nc).stream))
      replicas.push(`${c.name} at ${c.config.num_replicas || stream.config.num_replicas}`);
    const js = jetstream(nc);
    const consumer = await js.consumers.get(namesOf(nc).stream, { deliver_policy: DeliverPolicy.All });
    const info = await consumer.info();
    const total = info.num_pending;
    if (total > 0) {
      const messages = await consumer.consume();
      for await (const m of messages) {
        stored += 1;
        const id = m.headers?.get('Nats-Msg-Id') ?? `(no id) ${m.seq}`;
        seen.set(id, [...(seen.get(id) ?? []), m.seq]);
        if (m.info.pending === 0) break;
      }
    }
  } finally {
    await nc.close();
  }
  const twice = [...seen].filter(([, seqs]) => seqs.length > 1);
  return [
    check(
      'every event stored once in the stream, across leader changes',
      `${stored} events, ${twice.length} stored twice; ${replicas[0]} replicas, consumers at ${[...new Set(replicas.slice(1).map((r) => r.split(' at ')[1]))].join('/')}`,
      twice.map(([id, seqs]) => `event ${id} stored at sequences ${seqs.join(', ')}`),
    ),
  ];
}
