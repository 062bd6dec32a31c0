import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { namesOf } from '@coin/bus';
import { describe, expect, it } from 'vitest';
import { type ParkedEvent, replayParked } from '../src/index.ts';
import {
  consume,
  type Event,
  fast,
  fresh,
  namespace,
  natsUrl,
  nc,
  parkedGauge,
  parkedOf,
  publish,
  until,
  useConsumerBus,
} from './consumer-support.ts';

useConsumerBus();

describe('one consumer policy: parking and replay', () => {
  it('parks a malformed event at once, unhandled; it is counted, listed by the command, and replayed to its durable only', async () => {
    const { subject, durable } = fresh();
    const handled: Event[] = [];
    const otherSaw: Event[] = [];
    await consume({ durable, subject, retry: fast, handle: async (e) => void handled.push(e) });
    await consume({ durable: `${durable}-other`, subject, handle: async (e) => void otherSaw.push(e) });

    await publish(subject, { eventId: randomUUID(), amount: -3 });
    await publish(subject, 'not json {');
    const good = { eventId: randomUUID(), amount: 5 };
    await publish(subject, good);

    const parked = await until(async () => {
      const p = await parkedOf(durable);
      return p.length === 2 ? p : undefined;
    });
    expect(parked.map((p) => p.reason)).toEqual([
      'malformed: amount: must be greater than 0',
      expect.stringMatching(/^malformed: not JSON/),
    ]);
    expect(parked[0]).toMatchObject({ durable, subject: namesOf(nc).event(subject), deliveries: 1 });
    expect(handled).toEqual([good]);
    expect(await parkedGauge(durable)).toBe(2);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['libs/events/src/parked-command.ts', 'list', '--durable', durable],
      { env: { ...process.env, NATS_URL: natsUrl, NATS_NAMESPACE: namespace } },
    );
    const listed = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ParkedEvent);
    expect(listed.map((p) => p.seq)).toEqual(parked.map((p) => p.seq));

    // Replayed as it is, it is still malformed: parked again, and the other durable never sees it.
    await replayParked(nc, parked[0].seq);
    const again = await until(async () => {
      const p = await parkedOf(durable);
      return p.length === 2 && p[1].seq > parked[1].seq ? p : undefined;
    });
    expect(again.map((p) => p.payload)).toEqual([parked[1].payload, parked[0].payload]);
    expect(otherSaw).toEqual([good]);
  });

  it('retries a failing event until 24 hours after its first delivery, then parks it; replayed once fixed, it is applied', async () => {
    const { subject, durable } = fresh();
    let offsetMs = 0;
    let broken = true;
    const tries: number[] = [];
    const applied: string[] = [];
    await consume({
      durable,
      subject,
      retry: fast,
      now: () => Date.now() + offsetMs,
      handle: async (e, meta) => {
        tries.push(meta.deliveries);
        if (broken) throw new Error('redis unavailable');
        applied.push(e.eventId);
      },
    });
    const event = { eventId: randomUUID(), amount: 2 };
    await publish(subject, event);
    // Many deliveries within the day: a count never decides.
    await until(() => tries.length >= 20);
    expect(await parkedOf(durable)).toEqual([]);

    offsetMs = 23 * 3600_000;
    const before = tries.length;
    await until(() => tries.length >= before + 3);
    expect(await parkedOf(durable)).toEqual([]);

    offsetMs = 24 * 3600_000;
    const [parked] = await until(async () => {
      const p = await parkedOf(durable);
      return p.length === 1 ? p : undefined;
    });
    expect(parked.reason).toMatch(/^failed for 86400000 ms: Error: redis unavailable/);
    expect(JSON.parse(parked.payload)).toEqual(event);
    const settled = tries.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(tries.length).toBe(settled);

    broken = false;
    await replayParked(nc, parked.seq);
    await until(() => applied.length === 1);
    expect(applied).toEqual([event.eventId]);
    expect(await parkedOf(durable)).toEqual([]);
    expect(await parkedGauge(durable)).toBe(0);
  });
});
