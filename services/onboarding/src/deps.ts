import type { Database } from '@coin/db';
import type { OutboxRelay } from '@coin/events';
import type { OnboardingConfig } from './config.ts';
import type { RequestProcessor } from './domain/processing/request-processor.ts';

export interface OnboardingDeps {
  db: Database;
  config: OnboardingConfig;
  processor: RequestProcessor;
  relay: OutboxRelay;
}
