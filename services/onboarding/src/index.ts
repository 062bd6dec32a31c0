export { startOnboarding } from './service.ts';
