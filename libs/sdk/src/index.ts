export {
  anonymous,
  apiKey,
  type Credentials,
  type TokenPairCredentials,
  type Tokens,
  tokenPair,
} from './auth.ts';
export { type ClientOptions, type CoinClient, createClient, type RetryOptions } from './client.ts';
export { CoinApiError, CoinNetworkError, type FailureBody, WebhookVerificationError } from './errors.ts';
export { type OperationName, partnerOperations } from './operations.ts';
export type { CallOptions, InputOf, ItemOf, OutputOf, PagedName } from './types.ts';
export {
  type UserOnboardingEvent,
  type VerifyOptions,
  verifyWebhook,
  type WebhookEvent,
} from './webhooks.ts';
