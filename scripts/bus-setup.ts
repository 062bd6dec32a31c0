/**
 * `node scripts/bus-setup.ts` (`npm run bus:setup`): the operator's set-up of the bus, with the
 * operator's NATS credentials. It creates (or brings to this release's configuration) the events
 * stream, the parked-events stream, the payload stream and every durable consumer the contracts list
 * (EVENT_CONSUMERS), each with its one filter; services may only use them. Deployments run it with
 * the migrations, before the services start (the Kubernetes Job `migrate`, compose's `bus-setup`,
 * `make up`, the test harness).
 */
import { baseConfigSchema, integer, loadConfig } from '@coin/config';
import { EVENT_CONSUMERS } from '@coin/contracts';
import { setUpBus } from '@coin/events';
import { runCommand } from '@coin/startup';

const config = loadConfig(
  baseConfigSchema.extend({
    /** An event delivered to a process that died is redelivered after this. */
    EVENTS_ACK_WAIT_MS: integer(30_000, { min: 500 }),
    /** The payload stream's bound in bytes (large requests and replies wait there, encrypted). */
    BUS_PAYLOADS_MAX_BYTES: integer(512 * 1024 * 1024, { min: 16 * 1024 * 1024 }),
  }),
);

await runCommand('bus-setup', config, async ({ bus, log }) => {
  await setUpBus(await bus(), Object.values(EVENT_CONSUMERS), {
    replicas: config.EVENTS_STREAM_REPLICAS,
    ackWaitMs: config.EVENTS_ACK_WAIT_MS,
    payloadMaxBytes: config.BUS_PAYLOADS_MAX_BYTES,
  });
  log.info({ durables: Object.keys(EVENT_CONSUMERS).length }, 'bus set up');
  return 0;
});
