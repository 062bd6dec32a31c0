import { useState } from 'preact/hooks';
import { api } from '../session.ts';
import { Alert, Field, Form, Page, Pager, useLoad } from '../ui.tsx';
import { MoveUser } from './tiers.tsx';

export function UserPage(props: { userId: string }) {
  const { userId } = props;
  const [page, setPage] = useState(1);
  const user = useLoad(() => api.getPartnerUser({ userId }), [userId]);
  const balance = useLoad(() => api.getBalance({ userId }), [userId]);
  const history = useLoad(() => api.getUserTransactions({ userId, page, limit: 10 }), [userId, page]);
  const tiers = useLoad(() => api.listTiers({ limit: 100 }), []);
  const tierName = tiers.data?.data.find((t) => t.id === user.data?.tierId)?.name;
  const moved = () => {
    balance.reload();
    history.reload();
  };
  return (
    <Page title={`User ${userId}`}>
      <Alert>{user.error}</Alert>
      <dl class="facts">
        <dt>Balance</dt>
        <dd data-testid="balance">{balance.data ? `${balance.data.coins} coins` : '…'}</dd>
        <dt>Tier</dt>
        <dd>{user.data ? (tierName ?? 'none') : '…'}</dd>
        <dt>Onboarded</dt>
        <dd>{user.data ? new Date(user.data.createdAt).toLocaleString() : '…'}</dd>
      </dl>
      <section aria-labelledby="transfer">
        <h2 id="transfer">Transfer coins</h2>
        {(['to', 'from'] as const).map((direction) => (
          <Form
            key={direction}
            label={direction === 'to' ? 'Give coins to the user' : 'Take coins from the user'}
            fields={['coins', 'narration']}
            submit={direction === 'to' ? 'Give coins' : 'Take coins'}
            action={async (v, form) => {
              const body = { userId, coins: Number(v.coins), narration: v.narration || undefined };
              const { coinsLedger } =
                direction === 'to' ? await api.transferToUser(body) : await api.transferFromUser(body);
              form.reset();
              moved();
              return `${coinsLedger.debitOrCredit === 'CR' ? 'Gave' : 'Took'} ${coinsLedger.coins} coins.`;
            }}
          >
            {(e) => (
              <>
                <Field
                  label={direction === 'to' ? 'Coins to give' : 'Coins to take'}
                  name="coins"
                  type="number"
                  step="0.01"
                  error={e.coins}
                />
                <Field
                  label={`Narration (${direction === 'to' ? 'give' : 'take'})`}
                  name="narration"
                  error={e.narration}
                />
              </>
            )}
          </Form>
        ))}
      </section>
      <section aria-labelledby="tier">
        <h2 id="tier">Tier</h2>
        <MoveUser tiers={tiers.data?.data ?? []} userId={userId} onMoved={user.reload} />
      </section>
      <section aria-labelledby="history">
        <h2 id="history">History</h2>
        <Alert>{history.error}</Alert>
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Direction</th>
              <th scope="col">Coins</th>
              <th scope="col">Narration</th>
            </tr>
          </thead>
          <tbody>
            {history.data?.data.map((entry) => (
              <tr key={entry.id}>
                <td>{new Date(entry.createdAt).toLocaleString()}</td>
                <td>{entry.debitOrCredit === 'CR' ? 'credit' : 'debit'}</td>
                <td>{entry.coins}</td>
                <td>{entry.narration}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {history.data && (
          <Pager label="History" page={page} lastpage={history.data.lastpage} onPage={setPage} />
        )}
      </section>
    </Page>
  );
}
