import type { Operation } from '@coin/contracts';
// The project's one backoff (full jitter); its own module, free of the job queue's database code.
import { backoffDelay } from '@coin/jobs/backoff';
import { anonymous, type Credentials, type Tokens } from './auth.ts';
import { CoinApiError, CoinNetworkError, type FailureBody } from './errors.ts';
import { type OperationName, partnerOperations } from './operations.ts';
import type { CallOptions, InputOf, ItemOf, Methods, OutputOf, PagedName } from './types.ts';

export interface RetryOptions {
  /** Attempts in all, the first included. */
  attempts: number;
  baseMs: number;
  capMs: number;
}

export interface ClientOptions {
  /** Where the API is, e.g. `https://rewards.example.com` (the paths carry `/api/v1`). */
  baseUrl: string;
  credentials?: Credentials;
  retry?: Partial<RetryOptions>;
  /** Per attempt. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseMs: 200, capMs: 5_000 };

type Raw = { data: unknown; location: string | null };

function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** Reads change nothing, so answering them twice is harmless. */
function isRead(op: Operation): boolean {
  return op.http!.method === 'GET' && !op.schemas.body;
}

function buildRequest(op: Operation, input: Record<string, unknown>) {
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
  // Browsers' and Node's fetch send no body with GET: create-rule goes as POST, which it also takes.
  const method = http.method === 'GET' && op.schemas.body ? http.alsoMethods![0] : http.method;
  const qs = search.size ? `?${search}` : '';
  return { method, path: `${path}${qs}`, body: op.schemas.body ? JSON.stringify(body) : undefined };
}

/**
 * A client of the partner API: one method per operation (`client.transferToUser({userId, coins})`),
 * answering the envelope's `data` or throwing CoinApiError / CoinNetworkError.
 */
export function createClient(options: ClientOptions) {
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  let credentials = options.credentials ?? anonymous;

  async function attempt(
    op: Operation,
    req: ReturnType<typeof buildRequest>,
    token: string | undefined,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<Raw> {
    const all: Record<string, string> = { accept: 'application/json', ...headers };
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
    const retryAfter = res.headers.get('retry-after');
    throw new CoinApiError(
      res.status,
      envelope?.status === 'failed' ? (body as FailureBody) : undefined,
      res.headers.get('x-request-id') ?? undefined,
      retryAfter === null ? undefined : Number(retryAfter),
    );
  }

  function retryable(err: unknown, op: Operation, hasKey: boolean): boolean {
    // A 503 means the operation was not done (nobody took it, or a dependency refused it); after a
    // 504 or a lost connection it may have been, so only reads and keyed calls are asked again.
    if (err instanceof CoinApiError) {
      if (err.status === 503) return true;
      if (err.status === 409) return err.appErrorCode === 'IDEMPOTENCY_IN_PROGRESS';
      return err.status === 504 && (hasKey || isRead(op));
    }
    return err instanceof CoinNetworkError && (hasKey || isRead(op));
  }

  async function refreshCall(refreshToken: string): Promise<Tokens> {
    const { tokens } = await call('refreshTokens', { refreshToken });
    return tokens;
  }

  async function send<K extends OperationName>(
    name: K,
    input: Record<string, unknown>,
    opts: CallOptions,
  ): Promise<Raw> {
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
        return await attempt(op, req, token, headers, opts.signal);
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
        if (n + 1 >= retry.attempts || !retryable(err, op, key !== undefined)) throw err;
        await new Promise((r) => setTimeout(r, backoffDelay(n + 1, retry)));
      }
    }
  }

  async function call<K extends OperationName>(
    name: K,
    input?: InputOf<(typeof partnerOperations)[K]>,
    opts: CallOptions = {},
  ): Promise<OutputOf<(typeof partnerOperations)[K]>> {
    const { data, location } = await send(name, (input ?? {}) as Record<string, unknown>, opts);
    if (!(partnerOperations[name] as Operation).http!.noData)
      return data as OutputOf<(typeof partnerOperations)[K]>;
    // Onboarding answers without data; its request's id is the last segment of `Location`.
    const requestId = location?.split('/').pop();
    return { requestId } as OutputOf<(typeof partnerOperations)[K]>;
  }

  /**
   * Every item of a paginated list, fetching the next page as the loop reaches it. A list that
   * answers `nextCursor` (history) is walked by cursor, which stays exact while new items arrive.
   */
  async function* iterate<K extends PagedName>(
    name: K,
    input?: InputOf<(typeof partnerOperations)[K]>,
    opts: CallOptions = {},
  ): AsyncGenerator<ItemOf<K>> {
    let next: { page?: number; cursor?: string } = {
      page: (input as { page?: number } | undefined)?.page ?? 1,
    };
    for (;;) {
      const res = (await call(
        name,
        { ...input, ...next } as InputOf<(typeof partnerOperations)[K]>,
        opts,
      )) as {
        data: ItemOf<K>[];
        nextpage: number | null;
        nextCursor?: string | null;
      };
      yield* res.data;
      if (res.nextCursor !== undefined) {
        if (res.nextCursor === null) return;
        next = { cursor: res.nextCursor };
      } else {
        if (res.nextpage === null) return;
        next = { page: res.nextpage };
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
    /** Switch credentials, e.g. to a token pair after `login`. */
    useCredentials(next: Credentials) {
      credentials = next;
    },
  };
}

export type CoinClient = ReturnType<typeof createClient>;
