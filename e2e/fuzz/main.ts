import { randomInt } from 'node:crypto';
import { startWebhookReceiver } from '@coin/testing';
import { formatReport, runFuzz } from './run.ts';
import { notReady, startFuzzStack } from './stack.ts';
import { buildWorld } from './world.ts';

/**
 * `make fuzz`: FUZZ_COUNT (10,000) generated requests through a full stack, then the status table.
 * SEED replays a run; SEED with FUZZ_INDEX replays one request of it. Exits 1 on any failure.
 */
const seed = process.env.SEED ? Number(process.env.SEED) : randomInt(2 ** 31);
const count = Number(process.env.FUZZ_COUNT ?? 10_000);
const only = process.env.FUZZ_INDEX === undefined ? undefined : Number(process.env.FUZZ_INDEX);
console.log(`fuzz: seed ${seed} (replay with SEED=${seed})`);

const fuzz = await startFuzzStack();
const receiver = await startWebhookReceiver();
// Ctrl-C still drops the run's databases and stream.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void Promise.allSettled([receiver.close(), fuzz.stack.stop()]).then(() => process.exit(130));
  });
let failed = true;
try {
  const world = await buildWorld(fuzz.stack.api, receiver);
  const started = Date.now();
  const report = await runFuzz({
    baseUrl: fuzz.stack.url,
    world,
    seed,
    count,
    only,
    concurrency: Number(process.env.FUZZ_CONCURRENCY ?? 4),
    onProgress: (sent, byStatus) =>
      console.log(
        `  ${sent} sent, ${((Date.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(byStatus)}`,
      ),
  });
  console.log(formatReport(report));
  console.log(`  took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const down = await notReady(fuzz, world);
  for (const problem of down) console.log(`not serving after the run: ${problem}`);
  failed = report.failures.length > 0 || down.length > 0;
} finally {
  await receiver.close();
  await fuzz.stack.stop();
}
process.exit(failed ? 1 : 0);
