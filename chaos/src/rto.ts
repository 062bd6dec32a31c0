import type { FaultEvent } from './faults.ts';
import type { FaultKind } from './options.ts';
import type { OpRecord } from './workload/clients.ts';

/** What a client asks to change: transfers, rewards, onboarding and tier moves. */
const WRITES = new Set(['transfer-to-user', 'transfer-from-user', 'reward', 'onboard', 'upgrade-tier']);

export interface Recovery {
  kind: FaultKind;
  label: string;
  /** From the fault (a failover's kill) to the first acknowledged write sent after it; null: none came. */
  ms: number | null;
}

/**
 * The RTO of each server-level fault: the time from it to the first write that was both sent after
 * it and acknowledged (2xx). A write sent before the fault and answered after proves nothing about
 * the servers after it, so it does not count.
 */
export function recoveries(events: FaultEvent[], records: OpRecord[]): Recovery[] {
  const acked = records
    .filter((r) => WRITES.has(r.kind) && r.final && r.final.status < 300 && r.finalSentAt && r.finalAt)
    .map((r) => ({ sent: r.finalSentAt!, answered: r.finalAt! }));
  return events.map((e) => {
    const after = acked.filter((w) => w.sent >= e.at).map((w) => w.answered);
    return { kind: e.kind, label: e.label, ms: after.length ? Math.min(...after) - e.at : null };
  });
}

/** Median and worst of a list of RTOs in ms (null: a fault after which no write was acknowledged). */
export function summarize(list: (number | null)[]): string {
  if (list.length === 0) return '-';
  if (list.some((v) => v === null)) return `${list.filter((v) => v === null).length} never`;
  const sorted = (list as number[]).toSorted((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return `${(median / 1000).toFixed(1)}/${(sorted.at(-1)! / 1000).toFixed(1)} s`;
}
