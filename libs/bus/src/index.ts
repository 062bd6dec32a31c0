export { broadcast, onBroadcast } from './broadcast.ts';
export {
  awaitReplicas,
  type BusNames,
  busNames,
  connectBus,
  inboxPrefixFor,
  type NatsConnection,
  namesOf,
  pingService,
  publicKeyOf,
  type ServiceInstance,
} from './connect.ts';
export { ensureStreamOnce } from './ensure-stream.ts';
export { ensurePayloadStream, PAYLOAD_STREAM, PAYLOAD_SUBJECT } from './large-payload.ts';
export { callOperation, callOperationJson } from './request.ts';
export {
  type BoundHandler,
  type Handler,
  handle,
  serveOperations,
} from './serve.ts';
export { publishToStream } from './stream-publish.ts';
export { SerializedJson } from './wire.ts';
