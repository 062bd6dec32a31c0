import type { z } from 'zod';
import type { Actor } from './actor.ts';
import type { Permission } from './permissions.ts';

export type ServiceName = 'identity' | 'onboarding' | 'rules' | 'wallet' | 'leaderboard' | 'webhooks';

/** A process that may call operations on the bus: a service, or the gateway in front of them. */
export type Caller = ServiceName | 'gateway';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpBinding {
  method: HttpMethod;
  /**
   * Further methods served by the same route, kept because docs/specification.md shows them and marked
   * deprecated in the reference (create-rule's GET with a JSON body, "2. Create rule").
   */
  alsoMethods?: readonly HttpMethod[];
  path: string;
  /** `partner`: a partner's access token or secret API key is required. */
  auth: 'partner' | 'none';
  /**
   * What the caller's credential must hold (permissions.ts): set on every `partner` operation, absent
   * on open ones. The gateway answers 403 FORBIDDEN naming it otherwise.
   */
  permission?: Permission;
  /**
   * Managing credentials or money policy: the caller must also be a session whose password was
   * entered within STEP_UP_MAX_AGE_SECONDS (never an API key).
   */
  stepUp?: boolean;
  /** Once it succeeds, the gateway revokes the access token it was called with (logout). */
  endsSession?: boolean;
  /**
   * Once it succeeds, the gateway writes a cutoff to the shared revocation list (revocation.ts), so
   * credentials issued before it are refused on every replica at once: `partner` every session of the
   * partner (and its API keys when the answer says `apiKeysRevoked > 0`), `member` the sessions of the
   * member in the path's `:id`, `caller` the sessions of the calling member (those issued before the
   * request), `answer` the sessions of the member the answer's `memberId` names, `keys` the partner's
   * verified API keys are checked with identity again.
   */
  cutoff?: 'partner' | 'member' | 'caller' | 'answer' | 'keys';
  /** The envelope's `message` on success. */
  message: string;
  /** The success envelope carries no `data` (onboard-users). */
  noData?: boolean;
  statusCode?: number;
  /**
   * The most bytes the request body may have, refused with 413 before it is read; by default
   * `DEFAULT_BODY_LIMIT_BYTES`, and a route without a body reads none (body-limits.ts).
   */
  bodyLimit?: number;
  /**
   * Beside the per-client limit of every route: `auth`, the stricter per-address limit of sign-up
   * and login routes; `partner`, a per-partner limit of an operation triggered by hand.
   */
  rateLimit?: 'auth' | 'partner';
  /** Accepts an `Idempotency-Key` header. */
  idempotent?: boolean;
  /**
   * The success answer's `Location` header: this path with each `:name` taken from the response
   * data (which a `noData` answer then still hides from the body).
   */
  location?: string;
  /**
   * The answer may be served up to this many milliseconds old: the gateway keeps it per partner and
   * request (services/gateway/src/answer-cache.ts), so many clients asking for the same page cost one
   * bus request per period instead of one each. Only for partner-scoped GETs without a body, and only
   * where that age stays well inside what the operation promises about freshness.
   */
  freshForMs?: number;
  summary: string;
}

export interface OperationSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response: z.ZodType;
}

export interface Operation<S extends OperationSchemas = OperationSchemas, P extends boolean = boolean> {
  service: ServiceName;
  name: string;
  subject: string;
  http?: HttpBinding;
  /** The request must carry the calling partner (`partnerId`); the bus refuses it otherwise. */
  partner: P;
  /**
   * Who may call it: the gateway for every operation bound to HTTP, and the services named in its
   * definition. The NATS authorization (scripts/nats-auth.ts) grants each caller exactly these.
   */
  callers: readonly Caller[];
  schemas: S;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

/**
 * The caller's partner, on the request and never in a body: a string for operations that need
 * one, absent for those that need none (either, for an operation not known statically).
 */
export type PartnerOf<P extends boolean> = [P] extends [true]
  ? { partnerId: string }
  : [P] extends [false]
    ? { partnerId?: undefined }
    : { partnerId?: string };

/** What a handler receives: the caller's identity and the validated parts of the request. */
export type OperationRequest<
  S extends OperationSchemas = OperationSchemas,
  P extends boolean = boolean,
> = PartnerOf<P> & {
  body: Infer<S['body']>;
  query: Infer<S['query']>;
  params: Infer<S['params']>;
  idempotencyKey?: string;
  clientIp?: string;
  /** Who is calling (a member or an API key), set by the gateway on partner requests. */
  actor?: Actor;
};

export type RequestOf<O> = O extends Operation<infer S, infer P> ? OperationRequest<S, P> : never;
export type ResponseOf<O> = O extends Operation<infer S> ? z.infer<S['response']> : never;

/** What a caller sends: the partner when the operation needs one, the other parts as needed. */
export type CallRequestOf<O> =
  O extends Operation<infer S, infer P>
    ? PartnerOf<P> & Partial<Omit<OperationRequest<S, P>, 'partnerId'>>
    : never;

interface OperationDef<S extends OperationSchemas> {
  service: ServiceName;
  name: string;
  http?: HttpBinding;
  /** For an operation without HTTP: whether it needs a partner (an HTTP one derives it from `auth`). */
  partner?: boolean;
  /** The processes that call it over the bus (the gateway calls every HTTP operation anyway). */
  callers?: readonly Caller[];
  schemas: S;
}

type NeedsPartner<D> = D extends { http: { auth: 'partner' } }
  ? true
  : D extends { partner: true }
    ? true
    : false;

function defineOperation<const D extends OperationDef<OperationSchemas>>(
  def: D,
): Operation<D['schemas'], NeedsPartner<D>> {
  const partner = (def.http ? def.http.auth === 'partner' : def.partner === true) as NeedsPartner<D>;
  const callers: readonly Caller[] = [
    ...new Set<Caller>([...(def.http ? ['gateway' as const] : []), ...(def.callers ?? [])]),
  ];
  return { ...def, partner, callers, subject: `svc.${def.service}.v1.${def.name}` };
}

/** An HTTP route as written in the reference: `'GET /api/v1/laas/tiers'`. */
type Route = `${HttpMethod} /${string}`;

/**
 * What an HTTP operation states beside its route; it needs the calling partner unless `auth: 'none'`,
 * and then it must name the permission that partner's credential needs.
 */
type HttpOperationDecl<S extends OperationSchemas> = Omit<
  HttpBinding,
  'method' | 'path' | 'auth' | 'permission' | 'stepUp'
> & {
  /** Services that call it over the bus besides the gateway. */
  callers?: readonly Caller[];
  schemas: S;
} & (
    | { auth: 'none'; permission?: never; stepUp?: never }
    | { auth?: undefined; permission: Permission; stepUp?: boolean }
  );

/** An internal operation: only the services named call it over the bus. */
interface InternalOperationDecl<S extends OperationSchemas> {
  partner: boolean;
  callers: readonly Caller[];
  schemas: S;
}

type PartnerUnlessOpen<D> = D extends { auth: 'none' } ? false : true;
type PartnerIfSaid<D> = D extends { partner: true } ? true : false;

/**
 * The declaration functions of one service's operations, so each operation states only what is
 * its own (its subject, and the gateway's right to call an HTTP one, follow from these).
 */
export function operationsOf(service: ServiceName) {
  return {
    http<const D extends HttpOperationDecl<OperationSchemas>>(
      name: string,
      route: Route,
      decl: D,
    ): Operation<D['schemas'], PartnerUnlessOpen<D>> {
      const { auth = 'partner', callers, schemas, ...binding } = decl;
      const [method, path] = route.split(' ') as [HttpMethod, string];
      return defineOperation({
        service,
        name,
        http: { method, path, auth, ...binding },
        callers,
        schemas,
      }) as Operation<D['schemas'], PartnerUnlessOpen<D>>;
    },
    internal<const D extends InternalOperationDecl<OperationSchemas>>(
      name: string,
      decl: D,
    ): Operation<D['schemas'], PartnerIfSaid<D>> {
      return defineOperation({ service, name, ...decl }) as Operation<D['schemas'], PartnerIfSaid<D>>;
    },
  };
}
