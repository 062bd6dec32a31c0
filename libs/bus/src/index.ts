export { broadcast, onBroadcast } from './broadcast.ts';
export { connectBus, type NatsConnection } from './connection.ts';
export { pingService, type ServiceInstance } from './discovery.ts';
export { type BusNames, namesOf } from './namespace.ts';
export { type CallOptions, callOperation } from './request.ts';
export {
  type BoundHandler,
  type Handler,
  type HandlerContext,
  handle,
  type RunningService,
  type ServeOptions,
  serveOperations,
} from './serve.ts';
