import { bodyLimitOf, formatBytes } from '../body-limits.ts';
import type { Operation } from '../operation.ts';
import { isApiKeyScope, STEP_UP_MAX_AGE_SECONDS } from '../permissions.ts';
import { operationDocs } from './index.ts';
import type { ErrorDoc } from './types.ts';

/**
 * Every error an operation can answer, by HTTP status: those of its own, and those every call of
 * its kind can get. The reference's error responses and the SDK's `appErrorCode` types both come
 * from here.
 */
export function errorsOf(op: Operation): Map<number, ErrorDoc[]> {
  const http = op.http!;
  const out = new Map<number, ErrorDoc[]>();
  const add = (status: number, code: string, when: string) => {
    const list = out.get(status) ?? [];
    if (!list.some((e) => e.code === code && e.when === when)) list.push({ code, when });
    out.set(status, list);
  };
  if (op.schemas.body || op.schemas.query || op.schemas.params)
    add(
      400,
      'Bad request',
      'a field is missing or invalid; `error` names it (`users[1].userId must be a valid GUID`)',
    );
  if (http.auth === 'partner') add(401, 'UNAUTHORIZED', 'no token, or an expired, invalid or revoked one');
  if (http.permission) {
    const who = isApiKeyScope(http.permission)
      ? `an API key without the \`${http.permission}\` scope, or a member whose role lacks it`
      : `an API key (\`${http.permission}\` is for sessions only), or a member whose role lacks it`;
    add(403, 'FORBIDDEN', `the credential lacks the \`${http.permission}\` permission: ${who}`);
  }
  if (http.stepUp)
    add(
      403,
      'STEP_UP_REQUIRED',
      `the session's password was entered more than ${STEP_UP_MAX_AGE_SECONDS / 60} minutes ago: sign in again`,
    );
  for (const [status, list] of Object.entries(operationDocs[op.name]?.errors ?? {}))
    for (const e of list) add(Number(status), e.code, e.when);
  const limit = bodyLimitOf(op);
  if (op.schemas.body) {
    add(413, 'PAYLOAD_TOO_LARGE', `the body is larger than ${formatBytes(limit)} (\`x-body-limit\`)`);
    add(415, 'UNSUPPORTED_MEDIA_TYPE', 'the body is not `application/json`');
  } else {
    add(
      413,
      'PAYLOAD_TOO_LARGE',
      `a body is sent: this operation takes none (at most ${formatBytes(limit)})`,
    );
  }
  add(
    429,
    'RATE_LIMITED',
    http.rateLimit === 'auth'
      ? 'too many calls from this address: this operation has a stricter limit (see Retry-After)'
      : http.rateLimit === 'partner'
        ? 'too many of these calls by this partner, or from this address (see Retry-After)'
        : 'too many calls from this address (see Retry-After)',
  );
  add(503, 'SERVICE_UNAVAILABLE', 'the service is down; nothing was done, retry with backoff');
  add(
    504,
    'SERVICE_TIMEOUT',
    'no answer in time; it may have been done: retry reads, and writes with the same Idempotency-Key',
  );
  return new Map([...out].sort(([a], [b]) => a - b));
}
