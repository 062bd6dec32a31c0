export { startWebhooks } from './service.ts';
