import { useState } from 'preact/hooks';
import { api } from '../session.ts';
import { Alert, Field, Form, Page, Pager, Select, useLoad } from '../ui.tsx';

type Status = '' | 'active' | 'inactive';

export function Rules() {
  const [status, setStatus] = useState<Status>('');
  const [page, setPage] = useState(1);
  const rules = useLoad(
    () => api.listRules({ page, limit: 10, status: status || undefined }),
    [page, status],
  );
  const [failure, setFailure] = useState<string>();
  return (
    <Page title="Rules">
      <section aria-labelledby="new-rule">
        <h2 id="new-rule">Create a rule</h2>
        <Form
          label="Create a rule"
          fields={['name', 'coinValue', 'maxNumberOfParticipant', 'condition']}
          submit="Create rule"
          action={async (v, form) => {
            const rule = await api.createRule({
              name: v.name,
              coinValue: v.coinValue,
              maxNumberOfParticipant: v.maxNumberOfParticipant,
              condition: v.condition,
            });
            form.reset();
            rules.reload();
            return `Rule ${rule.name} created.`;
          }}
        >
          {(e) => (
            <>
              <Field label="Name (lower case)" name="name" error={e.name} />
              <Field label="Coins per reward" name="coinValue" error={e.coinValue} />
              <Field
                label="Most participants"
                name="maxNumberOfParticipant"
                error={e.maxNumberOfParticipant}
              />
              <Field label="Condition" name="condition" error={e.condition} />
            </>
          )}
        </Form>
      </section>
      <section aria-labelledby="rule-list">
        <h2 id="rule-list">Your rules</h2>
        <Select
          label="Show"
          name="status"
          value={status}
          options={[
            ['', 'All rules'],
            ['active', 'Active rules'],
            ['inactive', 'Inactive rules'],
          ]}
          onChange={(v) => {
            setStatus(v as Status);
            setPage(1);
          }}
        />
        <Alert>{rules.error ?? failure}</Alert>
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Coins</th>
              <th scope="col">Participants</th>
              <th scope="col">Condition</th>
              <th scope="col">Status</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {rules.data?.data.map((r) => (
              <tr key={r.id}>
                <td>{r.name}</td>
                <td>{r.coinValue}</td>
                <td>
                  {r.participants} of {r.maxNumberOfParticipant}
                </td>
                <td>{r.condition}</td>
                <td>{r.status}</td>
                <td>
                  <button
                    type="button"
                    aria-label={`${r.status === 'active' ? 'Deactivate' : 'Activate'} ${r.name}`}
                    onClick={async () => {
                      setFailure(undefined);
                      await api
                        .updateRule({ id: r.id, status: r.status === 'active' ? 'inactive' : 'active' })
                        .then(rules.reload, (err: Error) => setFailure(err.message));
                    }}
                  >
                    {r.status === 'active' ? 'Deactivate' : 'Activate'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rules.data && <Pager label="Rules" page={page} lastpage={rules.data.lastpage} onPage={setPage} />}
      </section>
      <section aria-labelledby="reward">
        <h2 id="reward">Reward a user</h2>
        <Form
          label="Reward a user"
          fields={['userId', 'ruleName']}
          submit="Reward user"
          action={async (v) => {
            const { coinsLedger, isExisting } = await api.rewardUser({
              userId: v.userId,
              ruleName: v.ruleName,
            });
            return isExisting
              ? `Already rewarded: ${coinsLedger.coins} coins on ${new Date(coinsLedger.createdAt).toLocaleString()}.`
              : `Rewarded ${coinsLedger.coins} coins.`;
          }}
        >
          {(e) => (
            <>
              <Field label="User id" name="userId" error={e.userId} />
              <Field label="Rule name" name="ruleName" error={e.ruleName} />
            </>
          )}
        </Form>
      </section>
    </Page>
  );
}
