import { useState } from 'preact/hooks';
import { api } from '../session.ts';
import { Alert, Field, Form, Page, Pager, Select, useLoad } from '../ui.tsx';

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

export function Leaderboards() {
  const now = new Date();
  const [month, setMonth] = useState(now.getUTCMonth() + 1);
  const [year, setYear] = useState(now.getUTCFullYear());
  const [page, setPage] = useState(1);
  const [pointsPage, setPointsPage] = useState(1);
  const coins = useLoad(
    () => api.coinLeaderboard({ type: 'earner', month, year, page, limit: 10 }),
    [month, year, page],
  );
  const points = useLoad(() => api.pointsLeaderboard({ page: pointsPage, take: 10 }), [pointsPage]);
  const years = Array.from({ length: 5 }, (_, i) => String(now.getUTCFullYear() - i));
  return (
    <Page title="Leaderboards">
      <section aria-labelledby="coins">
        <h2 id="coins">Coins earned in a month</h2>
        <div class="row">
          <Select
            label="Month"
            name="month"
            value={String(month)}
            options={MONTHS.map((m, i) => [String(i + 1), m])}
            onChange={(v) => {
              setMonth(Number(v));
              setPage(1);
            }}
          />
          <Select
            label="Year"
            name="year"
            value={String(year)}
            options={years.map((y) => [y, y])}
            onChange={(v) => {
              setYear(Number(v));
              setPage(1);
            }}
          />
        </div>
        <Alert>{coins.error}</Alert>
        <table aria-label="Coin leaderboard">
          <thead>
            <tr>
              <th scope="col">Position</th>
              <th scope="col">User</th>
              <th scope="col">Coins</th>
            </tr>
          </thead>
          <tbody>
            {coins.data?.data.map((e, i) => (
              <tr key={e.userId}>
                <td>{(page - 1) * 10 + i + 1}</td>
                <td>
                  <code>{e.userId}</code>
                </td>
                <td>{e.coins}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {coins.data && (
          <Pager label="Coin leaderboard" page={page} lastpage={coins.data.lastpage} onPage={setPage} />
        )}
      </section>
      <section aria-labelledby="points">
        <h2 id="points">Points, all time</h2>
        <Alert>{points.error}</Alert>
        <table aria-label="Points leaderboard">
          <thead>
            <tr>
              <th scope="col">Position</th>
              <th scope="col">User</th>
              <th scope="col">Points</th>
            </tr>
          </thead>
          <tbody>
            {points.data?.data.map((e, i) => (
              <tr key={e.id}>
                <td>{(pointsPage - 1) * 10 + i + 1}</td>
                <td>
                  <code>{e.user?.userId ?? e.id}</code>
                </td>
                <td>{e.points}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {points.data && (
          <Pager
            label="Points leaderboard"
            page={pointsPage}
            lastpage={points.data.lastpage}
            onPage={setPointsPage}
          />
        )}
      </section>
      <section aria-labelledby="position">
        <h2 id="position">A user's position</h2>
        <Form
          label="Find a user's position"
          fields={['userId']}
          submit="Find position"
          action={async (v) => {
            const userId = v.userId.trim();
            const [c, p] = await Promise.all([
              api.coinLeaderboard({ type: 'earner', month, year, userId, limit: 1 }),
              api.pointsLeaderboard({ userId, take: 1 }),
            ]);
            const coinText = c.userPosition
              ? `#${c.userPosition.position} with ${c.userPosition.amount} coins in ${MONTHS[month - 1]} ${year}`
              : `no coins in ${MONTHS[month - 1]} ${year}`;
            const pointText = p.userPosition
              ? `#${p.userPosition.position} with ${p.userPosition.amount} points`
              : 'no points';
            return `Coins: ${coinText}. Points: ${pointText}.`;
          }}
        >
          {(e) => <Field label="User id" name="userId" error={e.userId} />}
        </Form>
      </section>
    </Page>
  );
}
