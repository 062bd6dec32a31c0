import { useState } from 'preact/hooks';
import { FormSection, labelled } from '../form.tsx';
import { type PagedList, useLoad, usePaged } from '../load.tsx';
import { namesOf } from '../names.ts';
import { api } from '../session.ts';
import { code, DataTable } from '../table.tsx';
import { Alert, Page, Section, Select } from '../ui.tsx';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const PAGE = 10;

/** One board's page: position, user, amount. */
function Board<T>(props: {
  label: string;
  amount: string;
  board: PagedList<{ data: T[]; lastpage: number }>;
  user: (entry: T) => string;
  value: (entry: T) => string | number;
}) {
  const { board } = props;
  const ids = board.data?.data.map(props.user) ?? [];
  const names = useLoad(() => namesOf(ids, (userId) => api.getPartnerUser({ userId })), [ids.join()]);
  return (
    <>
      <Alert>{board.error}</Alert>
      <DataTable
        label={props.label}
        rows={board.data?.data}
        rowKey={props.user}
        columns={[
          { head: 'Position', cell: (_, i) => (board.page - 1) * PAGE + i + 1 },
          { head: 'Name', cell: (e) => names.data?.get(props.user(e)) ?? '' },
          { head: 'User id', cell: (e) => code(props.user(e)) },
          { head: props.amount, cell: props.value },
        ]}
      />
      {board.pager(props.label)}
    </>
  );
}

export function Leaderboards() {
  const now = new Date();
  const [month, setMonth] = useState(now.getUTCMonth() + 1);
  const [year, setYear] = useState(now.getUTCFullYear());
  const coins = usePaged(
    (page) => api.coinLeaderboard({ type: 'earner', month, year, page, limit: PAGE }),
    [month, year],
  );
  const points = usePaged((page) => api.pointsLeaderboard({ page, take: PAGE }), []);
  const years = Array.from({ length: 5 }, (_, i) => String(now.getUTCFullYear() - i));
  const period = `${MONTHS[month - 1]} ${year}`;
  return (
    <Page title="Leaderboards">
      <Section title="Coins earned in a month">
        <div class="row">
          <Select
            label="Month"
            name="month"
            value={String(month)}
            options={MONTHS.map((m, i) => [String(i + 1), m])}
            onChange={(v) => setMonth(Number(v))}
          />
          <Select
            label="Year"
            name="year"
            value={String(year)}
            options={years.map((y) => [y, y])}
            onChange={(v) => setYear(Number(v))}
          />
        </div>
        <Board
          board={coins}
          label="Coin leaderboard"
          amount="Coins"
          user={(e) => e.userId}
          value={(e) => e.coins}
        />
      </Section>
      <Section title="Points, all time">
        <Board
          board={points}
          label="Points leaderboard"
          amount="Points"
          user={(e) => e.user?.userId ?? e.id}
          value={(e) => e.points}
        />
      </Section>
      <FormSection
        label="Find a user's position"
        fields={labelled({ userId: 'User id' })}
        submit="Find position"
        action={async (v) => {
          const userId = v.userId.trim();
          const [c, p] = await Promise.all([
            api.coinLeaderboard({ type: 'earner', month, year, userId, limit: 1 }),
            api.pointsLeaderboard({ userId, take: 1 }),
          ]);
          const coinText = c.userPosition
            ? `#${c.userPosition.position} with ${c.userPosition.amount} coins in ${period}`
            : `no coins in ${period}`;
          const pointText = p.userPosition
            ? `#${p.userPosition.position} with ${p.userPosition.amount} points`
            : 'no points';
          return `Coins: ${coinText}. Points: ${pointText}.`;
        }}
      />
    </Page>
  );
}
