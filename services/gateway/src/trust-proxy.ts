import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Which X-Forwarded-For entries the gateway believes. `true` (believe every entry) is refused: the
 * leftmost entry is whatever the client wrote, so every per-address limit could be dodged with a
 * fresh header per request. A hop count believes that many proxies in front (the rightmost entries,
 * appended by them); an address list believes only proxies at those addresses or CIDR blocks.
 * Fastify itself trusts no one for a bare number (it cannot check the peer is a proxy), so a hop
 * count becomes a trust function here: it is for a network where only the proxy reaches the
 * gateway (the production overlay's NetworkPolicy admits only the ingress controller).
 */
export const trustProxySetting = z
  .string()
  .default('false')
  .transform((value, ctx): false | string[] | ((address: string, hop: number) => boolean) => {
    const v = value.trim();
    if (v === '' || v === 'false' || v === '0') return false;
    if (/^\d{1,2}$/.test(v)) {
      const hops = Number(v);
      return (_address: string, hop: number) => hop < hops;
    }
    const entries = v.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !isAddressOrCidr(e));
    if (bad.length === 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        v === 'true'
          ? 'true would believe any client-written X-Forwarded-For; give the number of proxies in front (e.g. 1) or their addresses/CIDR blocks'
          : `must be false, a hop count or a comma-separated list of addresses/CIDR blocks (not: ${bad.join(', ')})`,
    });
    return z.NEVER;
  });

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}
