import { connectBus } from '@coin/bus';
import { EVENT_CONSUMERS } from '@coin/contracts';
import { setUpBus } from '@coin/events';

/**
 * The harness as the operator: the bus set-up `npm run bus:setup` runs in a deployment, in the
 * namespace of `env`, with `NATS_OPERATOR_NKEY_SEED` on a server with authorization. Services only
 * bind to what it creates. `EVENTS_ACK_WAIT_MS` shortens the durables' redelivery for a crash test.
 */
export async function setUpTestBus(env: NodeJS.ProcessEnv): Promise<void> {
  const nc = await connectBus(
    env.NATS_URL ?? 'nats://127.0.0.1:4222',
    'test-bus-setup',
    env.NATS_NAMESPACE ?? '',
    env.NATS_OPERATOR_NKEY_SEED,
  );
  const number = (v: string | undefined) => (v ? Number(v) : undefined);
  try {
    await setUpBus(nc, Object.values(EVENT_CONSUMERS), {
      replicas: number(env.EVENTS_STREAM_REPLICAS),
      ackWaitMs: number(env.EVENTS_ACK_WAIT_MS),
      payloadMaxBytes: 64 * 1024 * 1024,
    });
  } finally {
    await nc.close();
  }
}
