export { type GatewayConfig, gatewayConfig } from './config.ts';
export { type Gateway, startGateway } from './server.ts';
