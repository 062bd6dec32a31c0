/** Whose a delivered message is, as the consumer that received it sees it. */
export type Owner = 'ours' | 'another consumer' | 'outside the filter';

/** NATS subject matching: `*` one token, `>` the rest. */
function matches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length || (f[i] !== '*' && f[i] !== s[i])) return false;
  }
  return f.length === s.length;
}

/**
 * A pull consumer must handle only what its own durable delivered, inside its filter. A message
 * acknowledged (or terminated) through the wrong handler is settled in the consumer that sent it,
 * which then never applies it: the chaos HA run saw a durable's transfer events reach another
 * durable's handler after NATS node kills (docs/decisions/2026-11-27-ha-topology-and-failover.md).
 * `consumer` is the durable named in the message's acknowledgement subject.
 */
export function deliveryOwner(
  msg: { subject: string; consumer: string },
  durable: string,
  filter: string,
): Owner {
  if (msg.consumer !== durable) return 'another consumer';
  return matches(filter, msg.subject) ? 'ours' : 'outside the filter';
}
