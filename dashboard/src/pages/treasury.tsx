import { AuditTable } from '../audit.tsx';
import { FormSection } from '../form.tsx';
import { useLoad } from '../load.tsx';
import { api, useSession } from '../session.ts';
import { Alert, Page, Section } from '../ui.tsx';

const coins = (n: number) => `${n.toLocaleString('en', { maximumFractionDigits: 2 })} coins`;

export function Treasury() {
  const session = useSession();
  const treasury = useLoad(() => api.getTreasury(), []);
  // The limit's changes are in the audit log, which the 'audit' permission reads.
  const history = useLoad(
    () =>
      session.can('audit')
        ? api.listAuditLog({ action: 'setTreasury', limit: 20 })
        : Promise.resolve(undefined),
    [],
  );
  const t = treasury.data;
  const headroom = t && t.issuanceLimit !== null ? t.issuanceLimit - t.outstanding : undefined;
  return (
    <Page title="Treasury">
      <Alert>{treasury.error}</Alert>
      <ul class="cards" aria-label="Coins in circulation">
        <li>
          <span class="figure" data-testid="outstanding">
            {t ? coins(t.outstanding) : '…'}
          </span>{' '}
          outstanding: held by your users
        </li>
        <li>
          <span class="figure" data-testid="limit">
            {t ? (t.issuanceLimit === null ? 'No limit' : coins(t.issuanceLimit)) : '…'}
          </span>{' '}
          issuance limit
        </li>
        <li>
          <span class="figure">{headroom === undefined ? '—' : coins(headroom)}</span> left to issue
        </li>
        <li>
          <span class="figure">{t ? coins(t.issued) : '…'}</span> issued, {t ? coins(t.redeemed) : '…'}{' '}
          redeemed (net of reversals)
        </li>
      </ul>
      <FormSection
        label="Set the issuance limit"
        fields={[
          {
            name: 'issuanceLimit',
            label: 'Most coins your users may hold in all (empty: no limit)',
            type: 'number',
            step: '0.01',
          },
        ]}
        submit="Set the limit"
        requires={['treasury', 'set the issuance limit']}
        added={() => {
          treasury.reload();
          history.reload();
        }}
        action={async (v) => {
          const text = v.issuanceLimit.trim();
          const issuanceLimit = text === '' ? null : Number(text);
          const next = await api.setTreasury({ issuanceLimit });
          return next.issuanceLimit === null
            ? 'The limit is removed.'
            : `The limit is ${coins(next.issuanceLimit)}.`;
        }}
      />
      {history.data && (
        <Section title="Changes of the limit">
          <AuditTable label="Changes of the issuance limit" rows={history.data.data} />
        </Section>
      )}
    </Page>
  );
}
