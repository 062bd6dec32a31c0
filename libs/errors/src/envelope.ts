import type { AppError } from './app-error.ts';

export interface SuccessEnvelope<T> {
  status: 'success';
  message: string;
  data?: T;
}

export interface FailureEnvelope {
  status: 'failed';
  message: string;
  data: { errorType: string; appErrorCode: string; error: string };
}

export function success<T>(message: string, data?: T): SuccessEnvelope<T> {
  return data === undefined ? { status: 'success', message } : { status: 'success', message, data };
}

export function failure(err: AppError): FailureEnvelope {
  const { errorType, appErrorCode, error, message } = err.details;
  return { status: 'failed', message, data: { errorType, appErrorCode, error } };
}
