import { type NatsConnection, namesOf } from '@coin/bus';
import { eventually } from '@coin/testing';
import { jetstreamManager } from '@nats-io/jetstream';

/**
 * The stream position of the ledger entry's event on `subject` (waits until the wallet's outbox has
 * published it). The last event on the subject is looked at: the caller writes nothing else there
 * meanwhile.
 */
export async function ledgerEventPublished(
  nc: NatsConnection,
  subject: string,
  ledgerEntryId: string,
): Promise<number> {
  const names = namesOf(nc);
  const jsm = await jetstreamManager(nc);
  return eventually(async () => {
    const m = await jsm.streams
      .getMessage(names.stream, { last_by_subj: names.event(subject) })
      .catch(() => undefined);
    return m?.json<{ ledgerEntryId: string }>().ledgerEntryId === ledgerEntryId ? m.seq : undefined;
  });
}

/** Waits until the durable has acknowledged every event up to the stream position `seq`. */
export async function consumedUpTo(nc: NatsConnection, durable: string, seq: number): Promise<void> {
  const names = namesOf(nc);
  const jsm = await jetstreamManager(nc);
  await eventually(async () =>
    (await jsm.consumers.info(names.stream, names.durable(durable))).ack_floor.stream_seq >= seq
      ? true
      : undefined,
  );
}
