import { runMain } from '@coin/telemetry';
import { startWebhooks } from './service.ts';

runMain('webhooks', () => startWebhooks());
