import ipaddr from 'ipaddr.js';

/**
 * The client a per-client limit or throttle counts: an IPv4 address, or an IPv6 address's /64, the
 * block one subscriber gets (counted per full IPv6 address, a client would take a fresh one per
 * request). The gateway's limits and identity's login throttle count the same way.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const prefix = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${prefix.join(':')}::/64`;
}
