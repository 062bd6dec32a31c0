import type { z } from 'zod';

export type ServiceName = 'identity' | 'onboarding' | 'rules' | 'wallet' | 'leaderboard' | 'webhooks';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpBinding {
  method: HttpMethod;
  /** Further methods served by the same route (create-rule: GET with a body, and POST). */
  alsoMethods?: readonly HttpMethod[];
  path: string;
  /** `partner`: a partner's access token or secret API key is required. */
  auth: 'partner' | 'none';
  /** The envelope's `message` on success. */
  message: string;
  /** The success envelope carries no `data` (onboard-users). */
  noData?: boolean;
  statusCode?: number;
  /** Counted against the stricter per-IP limit of sign-up and login routes. */
  rateLimit?: 'auth';
  /** Accepts an `Idempotency-Key` header. */
  idempotent?: boolean;
  summary: string;
}

export interface OperationSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
}

export interface Operation<S extends OperationSchemas = OperationSchemas> {
  service: ServiceName;
  name: string;
  subject: string;
  http?: HttpBinding;
  schemas: S;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/** What a handler receives: the caller's identity and the validated parts of the request. */
export interface OperationRequest<S extends OperationSchemas = OperationSchemas> {
  partnerId?: string;
  body: Infer<S['body']>;
  query: Infer<S['query']>;
  params: Infer<S['params']>;
  idempotencyKey?: string;
  clientIp?: string;
}

export type RequestOf<O> = O extends Operation<infer S> ? OperationRequest<S> : never;
export type ResponseOf<O> = O extends Operation<infer S> ? z.infer<S['response']> : never;

export function defineOperation<S extends OperationSchemas>(def: {
  service: ServiceName;
  name: string;
  http?: HttpBinding;
  schemas: S;
}): Operation<S> {
  return { ...def, subject: `svc.${def.service}.v1.${def.name}` };
}
