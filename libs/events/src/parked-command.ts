/**
 * The operator's view of parked events (docs/operating/events-and-parked-work.md):
 *   npm run parked -- events list [--durable <name>]
 *   npm run parked -- events replay <seq>... | --durable <name> --all
 * `list` prints one JSON object per parked event; `replay` publishes each again for the consumer
 * that parked it and removes it from the parked stream.
 */
import { parseArgs } from 'node:util';
import { connectBus } from '@coin/bus';
import { baseConfigSchema, loadConfig, natsTls, runSubcommand } from '@coin/config';
import { listParked, replayParked } from './parked.ts';

const usage =
  'usage: npm run parked -- events list [--durable <name>] | replay (<seq>... | --durable <name> --all)';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { durable: { type: 'string' }, all: { type: 'boolean', default: false } },
});
const config = loadConfig(baseConfigSchema, process.env);
const nc = await connectBus(
  config.NATS_URL,
  'events-parked-command',
  config.NATS_NAMESPACE,
  config.NATS_NKEY_SEED,
  natsTls(config),
);
try {
  await runSubcommand(usage, positionals, {
    async list() {
      let n = 0;
      for await (const event of listParked(nc, values.durable)) {
        console.log(JSON.stringify(event));
        n += 1;
      }
      console.error(`${n} parked event(s)`);
    },
    async replay(sequences) {
      if (sequences.length === 0 && !(values.all && values.durable)) return 'usage';
      const seqs = sequences.map(Number);
      if (seqs.some((s) => !Number.isInteger(s) || s < 1))
        throw new Error(`sequences must be positive integers\n${usage}`);
      if (values.all) for await (const event of listParked(nc, values.durable)) seqs.push(event.seq);
      for (const seq of seqs) {
        const event = await replayParked(nc, seq);
        console.log(`replayed ${seq} (${event.durable}, ${event.subject})`);
      }
    },
  });
} finally {
  await nc.close();
}
