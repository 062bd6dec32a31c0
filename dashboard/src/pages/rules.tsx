import { useState } from 'preact/hooks';
import { FormSection, labelled } from '../form.tsx';
import { useAction, usePaged } from '../load.tsx';
import { api } from '../session.ts';
import { ListTable, when } from '../table.tsx';
import { Page, Section, StatusFilter } from '../ui.tsx';

type Status = '' | 'active' | 'inactive';

const RULE_FIELDS = labelled({
  name: 'Name (lower case)',
  coinValue: 'Coins per reward',
  maxNumberOfParticipant: 'Most participants',
  condition: 'Condition',
});

export function Rules() {
  const [status, setStatus] = useState<Status>('');
  const rules = usePaged((page) => api.listRules({ page, limit: 10, status: status || undefined }), [status]);
  const change = useAction(rules.reload);
  return (
    <Page title="Rules">
      <FormSection
        label="Create a rule"
        fields={RULE_FIELDS}
        submit="Create rule"
        requires={['rules', 'create rules']}
        added={rules.reload}
        action={async ({ name, coinValue, maxNumberOfParticipant, condition }) => {
          const rule = await api.createRule({ name, coinValue, maxNumberOfParticipant, condition });
          return `Rule ${rule.name} created.`;
        }}
      />
      <Section title="Your rules">
        <StatusFilter
          value={status}
          options={{ '': 'All rules', active: 'Active rules', inactive: 'Inactive rules' }}
          onChange={setStatus}
        />
        <ListTable
          list={rules}
          failure={change.failure}
          columns={[
            { head: 'Name', cell: (r) => r.name },
            { head: 'Coins', cell: (r) => r.coinValue },
            { head: 'Participants', cell: (r) => `${r.participants} of ${r.maxNumberOfParticipant}` },
            { head: 'Condition', cell: (r) => r.condition },
            { head: 'Status', cell: (r) => r.status },
            {
              head: 'Change',
              cell: (r) => {
                const [verb, next] =
                  r.status === 'active'
                    ? (['Deactivate', 'inactive'] as const)
                    : (['Activate', 'active'] as const);
                return (
                  <button
                    type="button"
                    aria-label={`${verb} ${r.name}`}
                    onClick={() => change.run(() => api.updateRule({ id: r.id, status: next }))}
                  >
                    {verb}
                  </button>
                );
              },
            },
          ]}
        />
        {rules.pager('Rules')}
      </Section>
      <FormSection
        label="Reward a user"
        fields={labelled({ userId: 'User id', ruleName: 'Rule name' })}
        submit="Reward user"
        requires={['coins', 'reward users']}
        action={async ({ userId, ruleName }) => {
          const { coinsLedger, isExisting } = await api.rewardUser({ userId, ruleName });
          return isExisting
            ? `Already rewarded: ${coinsLedger.coins} coins on ${when(coinsLedger.createdAt)}.`
            : `Rewarded ${coinsLedger.coins} coins.`;
        }}
      />
    </Page>
  );
}
