import { connectBus, namesOf } from '@coin/bus';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Books, Service } from '../books.ts';
import { SERVICES } from '../cluster.ts';
import { type CheckResult, check } from './check.ts';

interface Stored {
  subject: string;
  seqs: number[];
}

/**
 * Every message of the events stream by its Nats-Msg-Id, read one sequence at a time from the stream
 * leader (not through a consumer, whose delivery a leader change could bend), and the replicas of
 * the stream and its consumers.
 */
async function readStream(
  env: NodeJS.ProcessEnv,
): Promise<{ events: Map<string, Stored>; replicas: string }> {
  const nc = await connectBus(env.NATS_URL!, 'chaos-events', env.NATS_NAMESPACE!);
  const events = new Map<string, Stored>();
  try {
    const jsm = await jetstreamManager(nc);
    const name = namesOf(nc).stream;
    const stream = await jsm.streams.info(name);
    const consumers = new Set<number>();
    for await (const c of jsm.consumers.list(name))
      consumers.add(c.config.num_replicas || stream.config.num_replicas);
    const { messages, first_seq, last_seq, num_deleted } = stream.state;
    let read = 0;
    for (let seq = first_seq; seq <= last_seq && messages > 0; seq++) {
      const m = await jsm.streams.getMessage(name, { seq }).catch((err: Error) => {
        if (/no message found/i.test(err.message)) return null;
        throw err;
      });
      if (!m) continue;
      read++;
      const id = m.header?.get('Nats-Msg-Id') || `(no id) ${seq}`;
      const seen = events.get(id) ?? { subject: m.subject, seqs: [] };
      seen.seqs.push(seq);
      events.set(id, seen);
    }
    // The stream's own count says whether a missing event was never stored or not read back here.
    const replicas = `stream ${stream.config.name} at ${stream.config.num_replicas} replicas (${messages} messages, ${read} read, sequences ${first_seq}-${last_seq}, ${num_deleted ?? 0} deleted), consumers at ${[...consumers].join('/')}`;
    return { events, replicas };
  } finally {
    await nc.close();
  }
}

/** Rows of a table that may not exist in a service's database (42P01: none). */
async function rowsOf<T>(books: Books, service: Service, sql: string): Promise<T[]> {
  return books.query<T>(service, sql).catch((err: { code?: string }) => {
    if (err.code === '42P01') return [];
    throw err;
  });
}

/**
 * The event chain across leader changes: every event an outbox holds as published (JetStream
 * acknowledged it) is in the stream, and each is stored once (the outbox publishes it under its id
 * as Nats-Msg-Id until acknowledged, so a leader that lost the deduplication would store it twice).
 * That each was applied once is the boards' and webhooks' checks against the ledger: a consumer
 * records the ids only of events with an effect (a debit moves no board), so ids cannot say it.
 */
export async function eventChecks(books: Books, env: NodeJS.ProcessEnv): Promise<CheckResult[]> {
  const { events, replicas } = await readStream(env);
  const lost: string[] = [];
  let published = 0;
  for (const service of SERVICES) {
    const rows = await rowsOf<{ id: string; subject: string; at: string }>(
      books,
      service,
      `SELECT id::text, subject, to_char(published_at AT TIME ZONE 'UTC', 'HH24:MI:SS.MS') AS at FROM outbox WHERE published_at IS NOT NULL`,
    );
    published += rows.length;
    // The time it was marked published places it among the run's faults.
    for (const r of rows)
      if (!events.has(r.id))
        lost.push(`${service} event ${r.id} (${r.subject}): marked published at ${r.at}, not in the stream`);
  }
  const twice = [...events].filter(([, s]) => s.seqs.length > 1);
  return [
    check(
      'every event JetStream acknowledged is in the stream',
      `${published} outbox events published, ${events.size} in the stream`,
      lost,
    ),
    check(
      'every event stored once in the stream, across leader changes',
      `${twice.length} stored twice; ${replicas}`,
      twice.map(([id, s]) => `event ${id} stored at sequences ${s.seqs.join(', ')}`),
    ),
  ];
}
