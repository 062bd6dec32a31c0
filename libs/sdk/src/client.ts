import type { Operation } from '@coin/contracts';
import { anonymous, type Credentials, type Tokens } from './auth.ts';
import { CoinApiError, CoinNetworkError, type FailureBody } from './errors.ts';
import { type OperationName, type PartnerOperations, partnerOperations } from './operations.ts';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, type RetryOptions, retryDelay } from './retry.ts';
import type { CallOptions, InputOf, ItemOf, Methods, OutputOf, PagedName } from './types.ts';
import { SDK_VERSION } from './version.ts';

export interface ClientOptions {
  /** Where the API is, e.g. `https://rewards.example.com` (the paths carry `/api/v1`). */
  baseUrl: string;
  credentials?: Credentials;
  retry?: Partial<RetryOptions>;
  /** Per attempt. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Your application, appended to `User-Agent` (`coin-sdk/1.0.0 shop-backend/4.2`). */
  appInfo?: string;
}

type Raw = { data: unknown; location: string | null };
type Request = { method: string; path: string; body: string | undefined };

function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

function buildRequest(op: Operation, input: Record<string, unknown>): Request {
  const http = op.http!;
  const params = new Set(shapeKeys(op.schemas.params));
  const query = new Set(shapeKeys(op.schemas.query));
  const path = http.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(input[key])));
  const search = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || params.has(key)) continue;
    if (query.has(key)) search.set(key, String(value));
    else body[key] = value;
  }
  const qs = search.size ? `?${search}` : '';
  return {
    method: http.method,
    path: `${path}${qs}`,
    body: op.schemas.body ? JSON.stringify(body) : undefined,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One method per operation, and the generic `call` and `iterate`. */
export type CoinClient = Methods & {
  /** Any operation by name: `call('getBalance', {userId})` is `getBalance({userId})`. */
  call<K extends OperationName>(
    name: K,
    input?: InputOf<PartnerOperations[K]>,
    opts?: CallOptions,
  ): Promise<OutputOf<PartnerOperations[K]>>;
  /**
   * Every item of a paginated operation, fetching the next page as the loop reaches it: by page
   * (`nextpage`), by cursor where the list answers `nextCursor` (history: exact while new entries
   * arrive), and the ledger export by `nextAfter` (up to the sealed end of the chain).
   */
  iterate<K extends PagedName>(
    name: K,
    input?: InputOf<PartnerOperations[K]>,
    opts?: CallOptions,
  ): AsyncGenerator<ItemOf<K>>;
  /** Switch credentials, e.g. to a token pair after `login`. */
  useCredentials(next: Credentials): void;
};

/**
 * A client of the partner API: one method per operation (`client.transferToUser({userId, coins})`),
 * answering the envelope's `data` or throwing CoinApiError / CoinNetworkError.
 */
export function createClient(options: ClientOptions): CoinClient {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const userAgent = [`coin-sdk/${SDK_VERSION}`, options.appInfo].filter(Boolean).join(' ');
  let credentials = options.credentials ?? anonymous;

  async function attempt(
    name: OperationName,
    req: Request,
    token: string | undefined,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<Raw> {
    const op = partnerOperations[name] as Operation;
    const all: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent, ...headers };
    if (req.body !== undefined) all['content-type'] = 'application/json';
    if (token && op.http!.auth === 'partner') all.authorization = `Bearer ${token}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: Response;
    let text: string;
    try {
      res = await doFetch(new URL(req.path, options.baseUrl), {
        method: req.method,
        headers: all,
        body: req.body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await res.text();
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new CoinNetworkError(`${req.method} ${req.path}: ${(err as Error).message}`, { cause: err });
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const envelope = body as { status?: string; data?: unknown } | undefined;
    if (res.ok && envelope?.status === 'success')
      return { data: envelope.data, location: res.headers.get('location') };
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
    throw new CoinApiError({
      status: res.status,
      body: envelope?.status === 'failed' ? (body as FailureBody) : undefined,
      requestId: res.headers.get('x-request-id') ?? undefined,
      retryAfterSeconds: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
      operation: name,
    });
  }

  async function refreshCall(refreshToken: string): Promise<Tokens> {
    const { tokens } = await call('refreshTokens', { refreshToken });
    return tokens;
  }

  async function send(name: OperationName, input: Record<string, unknown>, opts: CallOptions): Promise<Raw> {
    const op = partnerOperations[name] as Operation;
    const req = buildRequest(op, input);
    const headers: Record<string, string> = {};
    if (opts.requestId) headers['x-request-id'] = opts.requestId;
    // One key for every attempt, so a retry of a transfer that did happen replays it instead.
    const key = op.http!.idempotent ? (opts.idempotencyKey ?? crypto.randomUUID()) : undefined;
    if (key) headers['idempotency-key'] = key;
    let token = credentials.token();
    let refreshed = false;
    for (let n = 0; ; n++) {
      try {
        return await attempt(name, req, token, headers, opts.signal);
      } catch (err) {
        if (err instanceof CoinApiError && err.status === 401 && !refreshed && credentials.refresh) {
          refreshed = true;
          const next = await credentials.refresh(token, refreshCall);
          if (next) {
            token = next;
            n--;
            continue;
          }
        }
        if (n + 1 >= retry.attempts || !isRetryable(err, op, key !== undefined)) throw err;
        const delay = retryDelay(err, n + 1, retry);
        if (delay === undefined) throw err;
        await sleep(delay);
      }
    }
  }

  async function call<K extends OperationName>(
    name: K,
    input?: InputOf<PartnerOperations[K]>,
    opts: CallOptions = {},
  ): Promise<OutputOf<PartnerOperations[K]>> {
    const { data, location } = await send(name, (input ?? {}) as Record<string, unknown>, opts);
    if (!(partnerOperations[name] as Operation).http!.noData) return data as OutputOf<PartnerOperations[K]>;
    // Onboarding answers without data; its request's id is the last segment of `Location`.
    const requestId = location?.split('/').pop();
    return { requestId } as OutputOf<PartnerOperations[K]>;
  }

  async function* iterate<K extends PagedName>(
    name: K,
    input?: InputOf<PartnerOperations[K]>,
    opts: CallOptions = {},
  ): AsyncGenerator<ItemOf<K>> {
    let next: Record<string, unknown> = {};
    for (;;) {
      const page = (await call(name, { ...input, ...next } as InputOf<PartnerOperations[K]>, opts)) as {
        data?: ItemOf<K>[];
        nextpage?: number | null;
        nextCursor?: string | null;
        entries?: ItemOf<K>[];
        nextAfter?: number | null;
      };
      if (page.entries) {
        yield* page.entries;
        if (page.nextAfter == null) return;
        next = { after: page.nextAfter };
        continue;
      }
      yield* page.data ?? [];
      if (page.nextCursor !== undefined) {
        if (page.nextCursor === null) return;
        next = { cursor: page.nextCursor };
      } else {
        if (page.nextpage == null) return;
        next = { page: page.nextpage };
      }
    }
  }

  const methods = Object.fromEntries(
    Object.keys(partnerOperations).map((name) => [
      name,
      (input?: Record<string, unknown>, opts?: CallOptions) =>
        call(name as OperationName, input as never, opts),
    ]),
  ) as unknown as Methods;

  return {
    ...methods,
    call,
    iterate,
    useCredentials(next: Credentials) {
      credentials = next;
    },
  };
}
