import type { Database } from '@coin/db';
import type { WebhooksConfig } from './config.ts';
import type { Dispatcher } from './domain/dispatcher.ts';

export interface WebhooksDeps {
  db: Database;
  config: WebhooksConfig;
  dispatcher: Dispatcher;
}
