export { startRules } from './service.ts';
