export { startIdentity } from './service.ts';
