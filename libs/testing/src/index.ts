export { type IsolatedDatabases, isolatedDatabases } from './databases.ts';
export { eventually } from './eventually.ts';
export { type ApiClient, type ApiResponse, apiClient, type CallOptions } from './http.ts';
export { type DatabaseOutage, databaseOutage } from './outage.ts';
export { type SeededRandom, seededRandom } from './seeded-random.ts';
export { dockerAvailable, ensureServers, reachable } from './servers.ts';
export { type ServiceAlone, startServiceAlone } from './service-alone.ts';
export {
  dropStream,
  freePort,
  type GatewayProcess,
  type GatewayStarter,
  type ServiceProcess,
  type Stack,
  type StackOptions,
  type Starter,
  spawnGateway,
  spawnService,
  startStack,
} from './stack.ts';
export { storedUserReply, transferReply } from './stand-in-replies.ts';
export {
  type ReceivedWebhook,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from './webhook-receiver.ts';
