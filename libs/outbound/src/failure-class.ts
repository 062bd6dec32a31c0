import { OutboundRefused } from './client.ts';

/**
 * What a partner is told about a call that got no HTTP answer: a class, never the raw error. The
 * raw text (an address, a port, how the connect failed) would make the delivery log a port-scan
 * oracle; operators find it in the log.
 */
type OutboundFailure =
  | 'address_refused'
  | 'dns_error'
  | 'connection_refused'
  | 'timeout'
  | 'tls_error'
  | 'connection_error';

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ABORT_ERR',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

function codesOf(err: unknown): { codes: string[]; names: string[] } {
  const codes: string[] = [];
  const names: string[] = [];
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, name, cause } = e as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof name === 'string') names.push(name);
    e = cause;
  }
  return { codes, names };
}

export function outboundFailure(err: unknown): OutboundFailure {
  const { codes, names } = codesOf(err);
  if (err instanceof OutboundRefused || names.includes('OutboundRefused')) return 'address_refused';
  if (codes.some((c) => DNS_CODES.has(c))) return 'dns_error';
  if (codes.includes('ECONNREFUSED')) return 'connection_refused';
  if (
    codes.some((c) => TIMEOUT_CODES.has(c)) ||
    names.includes('TimeoutError') ||
    names.includes('AbortError')
  )
    return 'timeout';
  if (codes.some((c) => TLS_CODE.test(c))) return 'tls_error';
  return 'connection_error';
}
