import { BlockList, isIP } from 'node:net';

export type OutboundMode = 'development' | 'production';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

// Private, link-local, unique-local, CGNAT, unspecified, multicast and reserved ranges.
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}

/**
 * Why an address may not be called, or undefined when it may. Loopback is allowed only in
 * development mode, so a partner can test against a receiver on its own machine.
 */
export function refusalFor(address: string, mode: OutboundMode): string | undefined {
  const ip = unmapped(address);
  const family = isIP(ip);
  if (family === 0) return `${address} is not an IP address`;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(ip, type))
    return mode === 'development' ? undefined : `${address} is a loopback address`;
  if (internal.check(ip, type)) return `${address} is a private, link-local or reserved address`;
  return undefined;
}

/**
 * The check made when a partner registers a URL: http(s) only, and a host that is not literally
 * an internal address. The resolved addresses are checked again at every dispatch.
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return mode === 'development' ? undefined : 'must not point to a loopback address';
  }
  if (isIP(host) !== 0) {
    const refusal = refusalFor(host, mode);
    if (refusal) return 'must not point to a private, loopback or link-local address';
  }
  return undefined;
}
