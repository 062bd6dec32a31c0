import { BarChart } from '../chart.tsx';
import { api } from '../session.ts';
import { Alert, Page, useLoad } from '../ui.tsx';

export function Overview() {
  const now = new Date();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const summary = useLoad(() => api.coinSummary({ year, month }), [year, month]);
  const users = useLoad(() => api.listUsers({ limit: 1 }), []);
  const rules = useLoad(() => api.listRules({ status: 'active', limit: 1 }), []);
  const board = useLoad(() => api.coinLeaderboard({ type: 'earner', year, month, limit: 10 }), [year, month]);
  const monthName = now.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return (
    <Page title="Overview">
      <Alert>{summary.error ?? users.error ?? rules.error ?? board.error}</Alert>
      <ul class="cards" aria-label="This month">
        <li>
          <span class="figure" data-testid="issued">
            {summary.data?.issued ?? '…'}
          </span>{' '}
          coins issued in {monthName}
        </li>
        <li>
          <span class="figure" data-testid="redeemed">
            {summary.data?.redeemed ?? '…'}
          </span>{' '}
          coins redeemed in {monthName}
        </li>
        <li>
          <span class="figure" data-testid="users">
            {users.data?.count ?? '…'}
          </span>{' '}
          users
        </li>
        <li>
          <span class="figure" data-testid="active-rules">
            {rules.data?.count ?? '…'}
          </span>{' '}
          active rules
        </li>
      </ul>
      {summary.data && (
        <BarChart
          title={`Transfers per day, ${monthName} ${year}`}
          unit="transfers"
          bars={summary.data.days.map((d) => ({ label: d.day.slice(5), value: d.transfers }))}
        />
      )}
      {board.data && (
        <BarChart
          title={`Top earners, ${monthName} ${year}`}
          unit="coins"
          bars={board.data.data.map((e) => ({ label: e.userId.slice(0, 8), value: Number(e.coins) }))}
        />
      )}
    </Page>
  );
}
