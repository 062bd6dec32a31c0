import { useState } from 'preact/hooks';
import { RoleNote, useLacking } from '../allowed.tsx';
import { type ChainEntry, type Verdict, verifyChain } from '../chain.ts';
import { download } from '../download.ts';
import { api } from '../session.ts';
import { Alert, Page, Section } from '../ui.tsx';

/** The whole sealed chain, a page of the largest size at a time. */
async function exportAll(onProgress: (n: number) => void): Promise<ChainEntry[]> {
  const entries: ChainEntry[] = [];
  for (let after: number | null = 0; after !== null; ) {
    const page = await api.ledgerExport({ after, limit: 1000 });
    entries.push(...page.entries);
    onProgress(entries.length);
    after = page.nextAfter;
  }
  return entries;
}

function VerdictText(props: { verdict?: Verdict; source: string }) {
  const v = props.verdict;
  if (!v) return null;
  if (v.ok)
    return (
      <Alert kind="ok">
        {props.source}: the chain holds. {v.entries} entries verified; its head is{' '}
        <code class="id" title={v.head}>
          {v.head.slice(0, 16)}…
        </code>
      </Alert>
    );
  return (
    <Alert>
      {props.source}: the chain is broken at position {v.seq} (entry {v.id}): {v.why}.
    </Alert>
  );
}

export function Ledger() {
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [verdict, setVerdict] = useState<{ verdict: Verdict; source: string }>();
  const run = async (what: string, work: () => Promise<void>) => {
    setFailure(undefined);
    setVerdict(undefined);
    setBusy(what);
    try {
      await work();
    } catch (err) {
      setFailure((err as Error).message);
    } finally {
      setBusy(undefined);
    }
  };
  const progress = (n: number) => setBusy(`Read ${n} entries…`);
  const cannot = useLacking('export', 'export the ledger');
  return (
    <Page title="Ledger">
      <p>
        Every coin movement is a sealed entry in a hash chain: each entry's hash covers the one before.
        Download it to keep, and verify it here: your browser recomputes every hash (SHA-256) itself.
      </p>
      <Section title="Export and verify">
        <RoleNote text={cannot} />
        <div class="row">
          <button
            type="button"
            disabled={busy !== undefined || cannot !== undefined}
            onClick={() =>
              run('Exporting…', async () => {
                const entries = await exportAll(progress);
                const day = new Date().toISOString().slice(0, 10);
                download(`ledger-export-${day}.json`, 'application/json', JSON.stringify(entries, null, 1));
                setVerdict({ verdict: await verifyChain(entries), source: 'The downloaded export' });
              })
            }
          >
            Download the ledger
          </button>
          <button
            type="button"
            disabled={busy !== undefined || cannot !== undefined}
            onClick={() =>
              run('Verifying…', async () =>
                setVerdict({ verdict: await verifyChain(await exportAll(progress)), source: 'The ledger' }),
              )
            }
          >
            Verify the hash chain
          </button>
        </div>
        <p role="status">{busy}</p>
        <Alert>{failure}</Alert>
        {verdict && <VerdictText {...verdict} />}
      </Section>
      <Section title="Verify a downloaded export">
        <div class="field">
          <label for="export-file">An export file (JSON)</label>
          <input
            id="export-file"
            type="file"
            accept=".json,application/json"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file)
                run('Verifying…', async () => {
                  let entries: ChainEntry[];
                  try {
                    entries = JSON.parse(await file.text());
                  } catch {
                    throw new Error(`${file.name} is not a JSON export`);
                  }
                  if (!Array.isArray(entries)) throw new Error(`${file.name} is not a list of entries`);
                  setVerdict({ verdict: await verifyChain(entries), source: file.name });
                });
            }}
          />
        </div>
      </Section>
    </Page>
  );
}
