export { AppError, type ErrorDetails } from './app-error.ts';
export { failure, success } from './envelope.ts';
