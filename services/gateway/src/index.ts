export { type Gateway, startGateway } from './server.ts';
