export { broadcast, onBroadcast } from './broadcast.ts';
export { connectBus, inboxPrefixFor, type NatsConnection, publicKeyOf } from './connection.ts';
export { pingService, type ServiceInstance } from './discovery.ts';
export { ensureStreamOnce } from './ensure-stream.ts';
export { PAYLOAD_STREAM, PAYLOAD_SUBJECT } from './large-payload.ts';
export { type BusNames, busNames, namesOf } from './namespace.ts';
export { callOperation, callOperationJson } from './request.ts';
export {
  type BoundHandler,
  type Handler,
  handle,
  serveOperations,
} from './serve.ts';
export { publishToStream } from './stream-publish.ts';
export { SerializedJson } from './wire.ts';
