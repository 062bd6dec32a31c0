export { AppError, type ErrorDetails, type ErrorType } from './app-error.ts';
export { type FailureEnvelope, failure, type SuccessEnvelope, success } from './envelope.ts';
