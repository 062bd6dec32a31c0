import { runMain } from '@coin/startup';
import { startWebhooks } from './service.ts';

runMain('webhooks', () => startWebhooks());
