import { request } from 'undici';

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A raw body sent as is (for malformed-JSON tests). */
  raw?: string | Buffer;
  query?: Record<string, string | number | undefined>;
}

/**
 * A small HTTP client for tests and benchmarks. undici's request, not fetch: fetch refuses a GET
 * with a body, which create-rule needs.
 */
export function apiClient(baseUrl: string) {
  async function call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts: CallOptions = {},
  ): Promise<ApiResponse<T>> {
    const url = new URL(path, baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | Buffer | undefined = opts.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const res = await request(url, { method: method as 'GET', headers, body: payload });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as T, text };
  }
  return {
    baseUrl,
    call,
    get: <T = any>(path: string, opts?: CallOptions & { body?: unknown }) =>
      call<T>('GET', path, opts?.body, opts),
    post: <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>('POST', path, body, opts),
    put: <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>('PUT', path, body, opts),
    patch: <T = any>(path: string, body?: unknown, opts?: CallOptions) => call<T>('PATCH', path, body, opts),
    delete: <T = any>(path: string, opts?: CallOptions) => call<T>('DELETE', path, undefined, opts),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
