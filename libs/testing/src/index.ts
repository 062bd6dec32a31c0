export { setUpTestBus } from './bus-set-up.ts';
export { queryDatabase, withDatabase } from './database-client.ts';
export { type IsolatedDatabases, isolatedDatabases, serviceDatabases, withOwnRoles } from './databases.ts';
export { eventually, eventuallyPasses } from './eventually.ts';
export { type ApiClient, type ApiResponse, apiClient } from './http.ts';
export { databaseOutage } from './outage.ts';
export { type SeededRandom, seededRandom } from './seeded-random.ts';
export { reachable } from './servers.ts';
export { type ServiceAlone, startServiceAlone } from './service-alone.ts';
export {
  dropStream,
  freePort,
  type GatewayProcess,
  type ServiceProcess,
  type Stack,
  type Starter,
  spawnGateway,
  spawnService,
  startStack,
} from './stack.ts';
export { partnerReply, storedUserReply, transferReply } from './stand-in-replies.ts';
export {
  type ReceivedWebhook,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from './webhook-receiver.ts';
