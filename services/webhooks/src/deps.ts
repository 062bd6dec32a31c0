import type { Database } from '@coin/db';
import type { WebhooksConfig } from './config.ts';
import type { Dispatcher } from './delivery/dispatcher.ts';

export interface WebhooksDeps {
  orm: Database;
  config: WebhooksConfig;
  dispatcher: Dispatcher;
}
