/**
 * The bus without its request and serve machinery, for a process that only connects, names and
 * pings (make up's supervisor): the index also loads the contracts and telemetry, 35 MB more RSS.
 */
export { connectBus, inboxPrefixFor, type NatsConnection, publicKeyOf } from './connection.ts';
export { awaitReplicas, pingService, type ServiceInstance } from './discovery.ts';
export { type BusNames, busNames, namesOf } from './namespace.ts';
