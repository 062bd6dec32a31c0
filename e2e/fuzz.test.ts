import { randomInt } from 'node:crypto';
import { startWebhookReceiver, type WebhookReceiver } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuzzWorld } from './fuzz/draft.ts';
import { formatReport, runFuzz } from './fuzz/run.ts';
import { type FuzzStack, notReady, startFuzzStack } from './fuzz/stack.ts';
import { buildWorld } from './fuzz/world.ts';

const seed = process.env.SEED ? Number(process.env.SEED) : randomInt(2 ** 31);
let fuzz: FuzzStack;
let receiver: WebhookReceiver;
let world: FuzzWorld;

beforeAll(async () => {
  fuzz = await startFuzzStack();
  receiver = await startWebhookReceiver();
  world = await buildWorld(fuzz.stack.api, receiver);
});

afterAll(async () => {
  await receiver?.close();
  await fuzz?.stack.stop();
}, 180_000);

describe('fuzzer (short pass; `make fuzz` runs 10,000)', () => {
  it('answers 200 generated and damaged requests without a 5xx, a hang or a body outside the envelope, and every process is still ready', async () => {
    console.log(`fuzz seed ${seed} (replay with SEED=${seed})`);
    const report = await runFuzz({ baseUrl: fuzz.stack.url, world, seed, count: 200 });
    console.log(formatReport(report));
    expect(report.sent).toBe(200);
    expect(report.failures.map((f) => `#${f.index} ${f.reason}: ${f.request}`)).toEqual([]);
    expect(await notReady(fuzz, world)).toEqual([]);
  }, 300_000);
});
