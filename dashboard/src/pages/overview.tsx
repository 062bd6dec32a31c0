import type { ComponentChildren } from 'preact';
import { BarChart } from '../chart.tsx';
import { useLoad } from '../load.tsx';
import { api } from '../session.ts';
import { Alert, Page } from '../ui.tsx';

function Figure(props: { testId: string; value?: string | number; children: ComponentChildren }) {
  return (
    <li>
      <span class="figure" data-testid={props.testId}>
        {props.value ?? '…'}
      </span>{' '}
      {props.children}
    </li>
  );
}

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
        <Figure testId="issued" value={summary.data?.issued}>
          coins issued in {monthName}
        </Figure>
        <Figure testId="redeemed" value={summary.data?.redeemed}>
          coins redeemed in {monthName}
        </Figure>
        <Figure testId="users" value={users.data?.count}>
          users
        </Figure>
        <Figure testId="active-rules" value={rules.data?.count}>
          active rules
        </Figure>
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
