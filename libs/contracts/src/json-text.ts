import secureJson from 'secure-json-parse';

type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

const FORBIDDEN_KEY = 'Object contains forbidden prototype property';
/** Made once: the gateway parses every JSON body with it. */
const REFUSE_PROTOTYPE_KEYS = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * JSON text as the gateway takes it, on its event loop and in the large-request workers alike:
 * `__proto__` and `constructor.prototype` keys are refused. Such text is valid JSON, so the refusal
 * names the key rather than calling the text invalid.
 */
export function parseJsonText(json: string, what: 'body' | 'request'): ParsedJson {
  try {
    return { ok: true, value: secureJson.parse(json, undefined, REFUSE_PROTOTYPE_KEYS) };
  } catch (err) {
    const forbidden = err instanceof SyntaxError && err.message === FORBIDDEN_KEY;
    return {
      ok: false,
      error: forbidden
        ? `${what} must not contain a __proto__ or constructor.prototype key`
        : `${what} must be valid JSON`,
    };
  }
}
