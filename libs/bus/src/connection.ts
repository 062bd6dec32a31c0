import { connect, type NatsConnection, nkeyAuthenticator, nkeys } from '@nats-io/transport-node';
import { bindNames, busNames } from './namespace.ts';
import { bindReplies } from './replies.ts';

export type { NatsConnection };

/** The TLS files of a connection that must be TLS (@coin/config's natsTls reads them from the settings). */
interface NatsTls {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

/**
 * Where a connection's replies arrive: `_INBOX_<its public key>`. The authorization lets each
 * credential subscribe to its own inboxes only, so no process can read the replies sent to another
 * (a partner's webhook secret, a transfer's result).
 */
export function inboxPrefixFor(publicKey: string): string {
  return `_INBOX_${publicKey}`;
}

/** The public key of an nkey seed, refusing anything that is not a user seed. */
export function publicKeyOf(seed: string): string {
  const pair = nkeys.fromSeed(new TextEncoder().encode(seed));
  const key = pair.getPublicKey();
  if (!key.startsWith('U')) throw new Error('NATS_NKEY_SEED must be a user nkey seed (SU...)');
  return key;
}

/**
 * One connection per process; it reconnects for ever, so a NATS restart loses only in-flight
 * requests. The connection carries its namespace: every subject, stream and durable name used
 * through it is taken from `namesOf(nc)`. With `nkeySeed` it authenticates as that user and takes
 * its replies under the user's own inbox prefix; without, it connects anonymously (a server
 * without authorization: development).
 */
export async function connectBus(
  url: string,
  name: string,
  namespace: string,
  nkeySeed?: string,
  /** Given, the connection must be TLS (the server's certificate checked against `caFile`). */
  tls?: NatsTls,
): Promise<NatsConnection> {
  const inboxPrefix = nkeySeed ? inboxPrefixFor(publicKeyOf(nkeySeed)) : '_INBOX';
  const credentials = nkeySeed
    ? { authenticator: nkeyAuthenticator(new TextEncoder().encode(nkeySeed)), inboxPrefix }
    : {};
  const nc = await connect({
    servers: url.split(','),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
    // Otherwise every nats.js request (JetStream publishes) builds two Error objects (stack
    // captured) up front in case it fails later. A failure still has its own stack.
    noAsyncTraces: true,
    ...credentials,
    ...(tls ? { tls } : {}),
  });
  bindNames(nc, busNames(namespace));
  bindReplies(nc, inboxPrefix);
  return nc;
}
