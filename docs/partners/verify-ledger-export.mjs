// Verifies your coin ledger's hash chain from the export. Node 18+, no dependencies:
//   COIN_API=https://api.example.com COIN_TOKEN=<access token or API key> node verify-ledger-export.mjs
import { createHash } from 'node:crypto';

const api = process.env.COIN_API ?? 'http://localhost:3000';
const party = (p) => ['id', 'userId', 'fullname_businessName', 'email', 'tag'].map((f) => p[f] ?? null);
const canonical = (e) =>
  JSON.stringify([
    e.seq,
    e.id,
    e.userId,
    e.transactionType,
    e.debitOrCredit,
    e.coins,
    e.balanceAfter,
    e.narration,
    e.createdAt,
    ...party(e.from),
    ...party(e.to),
  ]);

let prev = '0'.repeat(64);
let after = 0;
for (;;) {
  const res = await fetch(`${api}/api/v1/laas/coins/ledger-export?after=${after}&limit=1000`, {
    headers: { authorization: `Bearer ${process.env.COIN_TOKEN}` },
  });
  if (!res.ok) throw new Error(`export answered ${res.status}`);
  const { entries, nextAfter } = (await res.json()).data;
  for (const e of entries) {
    const hash = createHash('sha256').update(prev).update(canonical(e)).digest('hex');
    if (e.seq !== after + 1 || e.prevHash !== prev || e.hash !== hash) {
      console.log(`BROKEN at position ${e.seq} (entry ${e.id})`);
      process.exit(1);
    }
    [prev, after] = [e.hash, e.seq];
  }
  if (nextAfter === null) break;
}
console.log(`OK: ${after} entries, head ${prev}`);
