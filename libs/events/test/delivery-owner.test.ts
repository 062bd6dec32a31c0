import { describe, expect, it } from 'vitest';
import { deliveryOwner } from '../src/delivery-owner.ts';

describe('deliveryOwner: a consumer handles only what its own durable delivered, inside its filter', () => {
  const mine = 'ns_leaderboard-rewards';
  const filter = 'ns.events.rules.rewarded';

  it("takes its own durable's message on its subject", () => {
    expect(deliveryOwner({ consumer: mine, subject: filter }, mine, filter)).toBe('ours');
  });

  it("leaves another durable's message to it (chaos HA: transfers reached the rewards handler)", () => {
    const transfer = { consumer: 'ns_leaderboard-transfers', subject: 'ns.events.wallet.transferCompleted' };
    expect(deliveryOwner(transfer, mine, filter)).toBe('another consumer');
  });

  it('refuses a message of its durable outside its filter', () => {
    const stray = { consumer: mine, subject: 'ns.events.wallet.transferCompleted' };
    expect(deliveryOwner(stray, mine, filter)).toBe('outside the filter');
  });

  it('matches filters with wildcards as NATS does', () => {
    const at = (subject: string, f: string) => deliveryOwner({ consumer: mine, subject }, mine, f);
    expect(at('ns.events.rules.rewarded', 'ns.events.rules.*')).toBe('ours');
    expect(at('ns.events.rules.rewarded', 'ns.events.>')).toBe('ours');
    expect(at('ns.events', 'ns.events.>')).toBe('outside the filter');
    expect(at('ns.events.rules.rewarded.x', 'ns.events.rules.*')).toBe('outside the filter');
  });
});
