import { z } from 'zod';
import type { Draft } from './draft.ts';

/** What came back for one request, or how it failed to. */
export type Outcome =
  | { kind: 'answer'; status: number; contentType: string; text: string }
  | { kind: 'hang' }
  /** The connection closed without an answer. */
  | { kind: 'reset'; error: string }
  /** The HTTP client would not send it (a header value no HTTP/1.1 message can carry). */
  | { kind: 'unsendable'; error: string };

const failedEnvelope = z.object({
  status: z.literal('failed'),
  message: z.string().min(1),
  data: z.object({ errorType: z.string().min(1), appErrorCode: z.string(), error: z.string().min(1) }),
});

const successEnvelope = z.object({ status: z.literal('success'), message: z.string().min(1) });

const STACK_TRACE = /\n\s+at |node:internal|\/src\/.*\.ts:\d+/;

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Why the answer breaks a promise of the API, or undefined when it keeps them all: no 5xx, no hang, every
 * refusal in the envelope of docs/specification.md ("Errors") without internals, every success in the shape
 * its contract declares, and no partner operation served without the partner's own credentials.
 */
export function violation(d: Draft, outcome: Outcome): string | undefined {
  if (outcome.kind === 'hang') return 'no answer within the client timeout';
  if (outcome.kind === 'reset') return `connection closed without an answer: ${outcome.error}`;
  if (outcome.kind === 'unsendable') return undefined;
  const { status, contentType, text } = outcome;
  if (status >= 500) return `answered ${status}`;
  if (STACK_TRACE.test(text)) return 'the answer shows a stack trace or source path';
  // A HEAD answer has no body by HTTP's rules, so only its status can be judged.
  if (d.method === 'HEAD') return undefined;
  if (!contentType.startsWith('application/json'))
    return `answered ${status} as ${contentType || 'no content type'}`;
  const body = json(text);
  if (status >= 400) {
    const parsed = failedEnvelope.safeParse(body);
    return parsed.success
      ? undefined
      : `${status} outside the error envelope: ${parsed.error.issues[0]?.message}`;
  }
  if (!successEnvelope.safeParse(body).success) return `${status} outside the success envelope`;
  if (d.op.http?.auth === 'partner' && d.authenticated === false && !d.offRoute)
    return `${status} without the partner's credentials`;
  if (d.offRoute || d.op.http?.noData) return undefined;
  const data = d.op.schemas.response.safeParse((body as { data?: unknown }).data);
  return data.success
    ? undefined
    : `${status} data breaks the contract: ${data.error.issues[0]?.path.join('.')} ${data.error.issues[0]?.message}`;
}
