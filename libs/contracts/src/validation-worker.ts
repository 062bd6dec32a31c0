import { allOperations } from './index.ts';
import { parseJsonText } from './json-text.ts';
import type { Operation } from './operation.ts';
import { type PartsResult, parseRequestParts } from './validation.ts';

/** What a worker is asked: parse `json` and validate it against the operation on subject `op`. */
export interface LargeRequestTask {
  op: string;
  json: string | Uint8Array;
  /**
   * `body`: `json` is the HTTP body and `query`/`params` come beside it (the gateway).
   * `envelope`: `json` is a bus request `{ partnerId, body, query, params, … }` (a service's subject).
   */
  shape: 'body' | 'envelope';
  /** For `body`: answer the validated body as JSON text (`bodyJson`), cheap to pass back and forward on. */
  serializeBody?: boolean;
  query?: unknown;
  params?: unknown;
}

/**
 * The parts' result and, for an `envelope` that is a JSON object, its other fields (partnerId, …);
 * with `serializeBody`, the valid body as `bodyJson` instead of `body`.
 */
export type LargeRequestResult = PartsResult & { envelope?: Record<string, unknown>; bodyJson?: string };

let bySubject: Map<string, Operation> | undefined;

/** The system's operation on this subject (built on first use: index.ts imports this module too). */
export function operationOn(subject: string): Operation | undefined {
  bySubject ??= new Map(allOperations.map((op) => [op.subject, op]));
  return bySubject.get(subject);
}
const decoder = new TextDecoder();

export default function validateLargeRequest(
  task: LargeRequestTask,
  op = operationOn(task.op),
): LargeRequestResult {
  if (!op) throw new Error(`unknown operation ${task.op}`);
  const parsed = parseJsonText(
    typeof task.json === 'string' ? task.json : decoder.decode(task.json),
    task.shape === 'body' ? 'body' : 'request',
  );
  if (!parsed.ok) return parsed;
  const value = parsed.value;
  if (task.shape === 'body') {
    const parts = parseRequestParts(op, { body: value, query: task.query, params: task.params });
    if (!parts.ok || !task.serializeBody) return parts;
    // A structured clone of 100,000 users costs the receiving event loop more than JSON text does.
    return { ...parts, body: undefined, bodyJson: JSON.stringify(parts.body) };
  }
  if (typeof value !== 'object' || value === null)
    return { ok: false, error: 'request must be a JSON object' };
  const { body, query, params, ...envelope } = value as Record<string, unknown>;
  return { ...parseRequestParts(op, { body, query, params }), envelope };
}
