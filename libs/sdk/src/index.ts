export {
  anonymous,
  apiKey,
  type Credentials,
  type TokenPairCredentials,
  type Tokens,
  tokenPair,
} from './auth.ts';
export { type ClientOptions, type CoinClient, createClient } from './client.ts';
export type { OperationErrorCodes } from './error-codes.ts';
export {
  CoinApiError,
  type CoinApiErrorInit,
  CoinNetworkError,
  type ErrorCodeOf,
  type FailureBody,
  isCoinApiError,
  WebhookVerificationError,
} from './errors.ts';
export { type OperationName, partnerOperations } from './operations.ts';
export type { RetryOptions } from './retry.ts';
export type { CallOptions, InputOf, ItemOf, OutputOf, PagedName } from './types.ts';
export { SDK_VERSION } from './version.ts';
export {
  type UserOnboardingEvent,
  type VerifyOptions,
  verifyWebhook,
  type WebhookEvent,
} from './webhooks.ts';
