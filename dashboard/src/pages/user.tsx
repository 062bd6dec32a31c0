import { useState } from 'preact/hooks';
import { RoleNote, useLacking } from '../allowed.tsx';
import { Form } from '../form.tsx';
import { useLoad, usePaged } from '../load.tsx';
import { userName, userTag } from '../names.ts';
import { api } from '../session.ts';
import { at, code, ListTable, withIds } from '../table.tsx';
import { Alert, Page, Section } from '../ui.tsx';
import { ReverseDialog, reversible } from './reverse.tsx';
import { MoveUser } from './tiers.tsx';

type Entry = Awaited<ReturnType<typeof api.getUserTransactions>>['data'][number];

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
      requires={['coins', 'move coins']}
      added={props.onMoved}
      action={async (v) => {
        const body = { userId: props.userId, coins: Number(v.coins), narration: v.narration || undefined };
        const { coinsLedger } = give ? await api.transferToUser(body) : await api.transferFromUser(body);
        return `${coinsLedger.debitOrCredit === 'CR' ? 'Gave' : 'Took'} ${coinsLedger.coins} coins.`;
      }}
    />
  );
}

/** What an entry is, as its reader needs it: reversed ones say so. */
function kind(e: Entry): string {
  const side = e.debitOrCredit === 'CR' ? 'credit' : 'debit';
  return e.refunded ? `${side}, reversed` : e.transactionType === 'reversal' ? `${side}, reversal` : side;
}

export function UserPage(props: { userId: string }) {
  const { userId } = props;
  const user = useLoad(() => api.getPartnerUser({ userId }), [userId]);
  const balance = useLoad(() => api.getBalance({ userId }), [userId]);
  const history = usePaged((page) => api.getUserTransactions({ userId, page, limit: 10 }), [userId]);
  const tiers = useLoad(() => api.listTiers({ limit: 100 }), []);
  const [reversing, setReversing] = useState<Entry>();
  const [reversed, setReversed] = useState<string>();
  const cannotReverse = useLacking('coins', 'reverse entries');
  const tierName = tiers.data?.data.find((t) => t.id === user.data?.tierId)?.name;
  const name = userName(user.data?.userData);
  const moved = () => {
    balance.reload();
    history.reload();
  };
  return (
    <Page title={name ?? `User ${userId}`}>
      <Alert>{user.error}</Alert>
      <dl class="facts">
        <dt>User id</dt>
        <dd>{code(userId)}</dd>
        <dt>Tag</dt>
        <dd>{user.data ? (userTag(user.data.userData) ?? 'none') : '…'}</dd>
        <dt>Available</dt>
        <dd data-testid="balance">{balance.data ? `${balance.data.available} coins` : '…'}</dd>
        <dt>Pending</dt>
        <dd data-testid="pending">{balance.data ? `${balance.data.pending} coins` : '…'}</dd>
        <dt>Tier</dt>
        <dd>{user.data ? (tierName ?? 'none') : '…'}</dd>
        <dt>Onboarded</dt>
        <dd>{user.data ? at(user.data.createdAt) : '…'}</dd>
      </dl>
      <Section title="Transfer coins">
        <Transfer userId={userId} direction="to" onMoved={moved} />
        <Transfer userId={userId} direction="from" onMoved={moved} />
      </Section>
      <Section title="Tier">
        <MoveUser tiers={tiers.data?.data ?? []} userId={userId} onMoved={user.reload} />
      </Section>
      <Section title="History">
        <Alert kind="ok">{reversed}</Alert>
        <RoleNote text={cannotReverse} />
        <ListTable
          list={history}
          columns={[
            { head: 'When', cell: (e) => at(e.createdAt) },
            { head: 'Entry', cell: (e) => kind(e) },
            { head: 'Coins', cell: (e) => e.coins },
            { head: 'Balance after', cell: (e) => e.balanceAfter },
            { head: 'Narration', cell: (e) => withIds(e.narration) },
            {
              head: 'Correct',
              cell: (e) =>
                reversible(e) && (
                  <button
                    type="button"
                    aria-label={`Reverse ${e.coins} coins: ${e.narration}`}
                    disabled={cannotReverse !== undefined}
                    onClick={() => setReversing(e)}
                  >
                    Reverse
                  </button>
                ),
            },
          ]}
        />
        {history.pager('History')}
      </Section>
      {reversing && (
        <ReverseDialog
          key={reversing.id}
          entry={reversing}
          onClose={() => setReversing(undefined)}
          reverse={async (reason) => {
            const { coinsLedger } = await api.reverseTransfer({ ledgerEntryId: reversing.id, reason });
            setReversed(`Reversed: ${coinsLedger.coins} coins moved back.`);
            moved();
          }}
        />
      )}
    </Page>
  );
}
