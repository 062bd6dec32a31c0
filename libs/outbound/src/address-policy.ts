import ipaddr from 'ipaddr.js';

export type OutboundMode = 'development' | 'production';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The ports a partner URL may name in production mode: HTTP's and HTTPS's. */
const PRODUCTION_PORTS = new Set(['80', '443']);

const v4 = (n: number) => ipaddr.IPv4.parse([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));

/**
 * The IPv4 addresses an IPv6 address carries and reaches: IPv4-mapped (::ffff:a.b.c.d), 6to4
 * (2002:AABB:CCDD::, RFC 3056) and Teredo (2001:0::/32: the server in bits 32–63, the client
 * obfuscated in the last 32). Each must itself be allowed.
 */
function embedded(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = ip.parts;
  switch (ip.range()) {
    case 'ipv4Mapped':
      return [ip.toIPv4Address()];
    case '6to4':
      return [v4((p[1] << 16) | p[2])];
    case 'teredo':
      return [v4((p[2] << 16) | p[3]), v4(~((p[6] << 16) | p[7]) >>> 0)];
    default:
      return [];
  }
}

/**
 * ::/96 (IPv4-compatible, deprecated) is `unicast` to ipaddr.js but reaches the IPv4 space; it is
 * refused outright, as is everything ipaddr.js does not class as `unicast` (private, loopback,
 * link-local, unique-local, fec0::/10, multicast, NAT64, documentation and other reserved ranges).
 */
function isIpv4Compatible(ip: ipaddr.IPv6): boolean {
  return ip.parts.slice(0, 6).every((part) => part === 0);
}

function classify(ip: Address, mode: OutboundMode): 'ok' | 'loopback' | 'internal' {
  const range = ip.range();
  if (range === 'loopback') return mode === 'development' ? 'ok' : 'loopback';
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    const inner = embedded(v6);
    // A wrapped loopback is no partner's local receiver: refused in every mode.
    if (inner.length > 0) return inner.every((a) => classify(a, 'production') === 'ok') ? 'ok' : 'internal';
    if (isIpv4Compatible(v6)) return 'internal';
  }
  return range === 'unicast' ? 'ok' : 'internal';
}

/**
 * Why an address may not be called, or undefined when it may: only public unicast addresses
 * (ipaddr.js's range classification), after unwrapping the IPv6 forms that carry an IPv4 one.
 * Loopback is allowed only in development mode, so a partner can test against a receiver on its
 * own machine.
 */
export function refusalFor(address: string, mode: OutboundMode): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const verdict = classify(ipaddr.parse(address), mode);
  if (verdict === 'loopback') return `${address} is a loopback address`;
  if (verdict === 'internal') return `${address} is a private, link-local or reserved address`;
  return undefined;
}

/** Why a URL's port may not be called: production mode calls only 80 and 443. */
export function portRefusal(url: URL, mode: OutboundMode): string | undefined {
  if (mode === 'development' || url.port === '' || PRODUCTION_PORTS.has(url.port)) return undefined;
  return 'must use port 80 or 443';
}

/**
 * The check made when a partner registers a URL: http(s) only, port 80 or 443 in production, and a
 * host that is not literally an internal address. The resolved addresses are checked again at
 * every dispatch.
 */
export function urlRefusal(raw: string, mode: OutboundMode): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be a valid http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be a valid http(s) URL';
  if (url.username || url.password) return 'must not carry credentials';
  const port = portRefusal(url, mode);
  if (port) return port;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return mode === 'development' ? undefined : 'must not point to a loopback address';
  }
  if (ipaddr.isValid(host) && refusalFor(host, mode))
    return 'must not point to a private, loopback or link-local address';
  return undefined;
}
