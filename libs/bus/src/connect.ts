/**
 * The bus without its request and serve machinery, for a process that only connects, names and
 * pings (make up's supervisor): the index also loads the contracts and telemetry, which such a
 * process would hold for nothing (docs/decisions/2026-11-25-make-up-process-memory.md).
 */
export { connectBus, inboxPrefixFor, type NatsConnection, publicKeyOf } from './connection.ts';
export { awaitReplicas, pingService, type ServiceInstance } from './discovery.ts';
export { type BusNames, busNames, namesOf } from './namespace.ts';
