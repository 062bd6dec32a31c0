import { Form } from '../form.tsx';
import { useLoad, usePaged } from '../load.tsx';
import { api } from '../session.ts';
import { ListTable, when } from '../table.tsx';
import { Alert, Page, Section } from '../ui.tsx';
import { MoveUser } from './tiers.tsx';

/** Gives coins to the user (`to`) or takes them back (`from`). */
function Transfer(props: { userId: string; direction: 'to' | 'from'; onMoved: () => void }) {
  const give = props.direction === 'to';
  return (
    <Form
      label={give ? 'Give coins to the user' : 'Take coins from the user'}
      fields={[
        { name: 'coins', label: give ? 'Coins to give' : 'Coins to take', type: 'number', step: '0.01' },
        { name: 'narration', label: `Narration (${give ? 'give' : 'take'})` },
      ]}
      submit={give ? 'Give coins' : 'Take coins'}
      added={props.onMoved}
      action={async (v) => {
        const body = { userId: props.userId, coins: Number(v.coins), narration: v.narration || undefined };
        const { coinsLedger } = give ? await api.transferToUser(body) : await api.transferFromUser(body);
        return `${coinsLedger.debitOrCredit === 'CR' ? 'Gave' : 'Took'} ${coinsLedger.coins} coins.`;
      }}
    />
  );
}

export function UserPage(props: { userId: string }) {
  const { userId } = props;
  const user = useLoad(() => api.getPartnerUser({ userId }), [userId]);
  const balance = useLoad(() => api.getBalance({ userId }), [userId]);
  const history = usePaged((page) => api.getUserTransactions({ userId, page, limit: 10 }), [userId]);
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
        <dd>{user.data ? when(user.data.createdAt) : '…'}</dd>
      </dl>
      <Section title="Transfer coins">
        <Transfer userId={userId} direction="to" onMoved={moved} />
        <Transfer userId={userId} direction="from" onMoved={moved} />
      </Section>
      <Section title="Tier">
        <MoveUser tiers={tiers.data?.data ?? []} userId={userId} onMoved={user.reload} />
      </Section>
      <Section title="History">
        <ListTable
          list={history}
          columns={[
            { head: 'When', cell: (entry) => when(entry.createdAt) },
            { head: 'Direction', cell: (entry) => (entry.debitOrCredit === 'CR' ? 'credit' : 'debit') },
            { head: 'Coins', cell: (entry) => entry.coins },
            { head: 'Narration', cell: (entry) => entry.narration },
          ]}
        />
        {history.pager('History')}
      </Section>
    </Page>
  );
}
