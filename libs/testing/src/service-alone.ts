import { randomBytes, randomUUID } from 'node:crypto';
import {
  callOperation,
  connectBus,
  type Handler,
  handle,
  type NatsConnection,
  namesOf,
  serveOperations,
} from '@coin/bus';
import type { CallRequestOf, Operation, ResponseOf } from '@coin/contracts';
import { AppError } from '@coin/errors';
import { createLogger } from '@coin/telemetry';
import { jetstream } from '@nats-io/jetstream';
import { type Starter, startStack } from './stack.ts';

export interface ServiceAlone {
  env: NodeJS.ProcessEnv;
  nc: NatsConnection;
  /** Calls one of the service's subjects as another service (or the gateway) would. */
  call<O extends Operation>(op: O, request: CallRequestOf<O>): Promise<ResponseOf<O>>;
  /** The AppError a call is refused with; fails when the call succeeds. */
  refusal<O extends Operation>(op: O, request: CallRequestOf<O>): Promise<AppError>;
  /**
   * Answers another service's subject the way its contract says, for the service under test to
   * call: the neighbour's side of the bus, without its code or database.
   */
  standIn<O extends Operation>(op: O, handler: Handler<O>): void;
  /** Publishes an event to the events stream as the service that owns `subject` would (a fresh message id). */
  publish(subject: string, payload: unknown): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One service started alone against the real Postgres, Redis and NATS (a fresh database and its own
 * namespace), reached only through its bus subjects: its public surface.
 */
export async function startServiceAlone(
  name: string,
  starter: Starter,
  env: Record<string, string> = {},
): Promise<ServiceAlone> {
  const namespace = `t${randomBytes(5).toString('hex')}`;
  const nc = await connectBus(env.NATS_URL ?? 'nats://127.0.0.1:4222', `${name}-test`, namespace);
  const standIns: { stop(): Promise<void> }[] = [];
  const stack = await startStack({
    services: { [name]: starter },
    env: { ...env, NATS_NAMESPACE: namespace },
  });
  const log = createLogger(`${name}-test`, 'silent');
  const call = <O extends Operation>(op: O, request: CallRequestOf<O>) =>
    callOperation(nc, op, request, { timeoutMs: 10_000 });
  return {
    env: stack.env,
    nc,
    call,
    async refusal(op, request) {
      try {
        await call(op, request);
      } catch (err) {
        if (err instanceof AppError) return err;
        throw err;
      }
      throw new Error(`${op.name} succeeded where a refusal was expected`);
    },
    standIn(op, handler) {
      standIns.push(
        serveOperations(nc, { service: op.service, version: '0.0.0', log, handlers: [handle(op, handler)] }),
      );
    },
    async publish(subject, payload) {
      await jetstream(nc).publish(namesOf(nc).event(subject), JSON.stringify(payload), {
        msgID: randomUUID(),
      });
    },
    async stop() {
      for (const s of standIns) await s.stop();
      await stack.stop();
      await nc.close();
    },
  };
}
