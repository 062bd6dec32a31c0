export { gatewayConfig } from './config.ts';
export { type Gateway, startGateway } from './server.ts';
