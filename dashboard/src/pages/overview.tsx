import type { ComponentChildren } from 'preact';
import { BarChart } from '../chart.tsx';
import { useLoad } from '../load.tsx';
import { namesOf, shortId } from '../names.ts';
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

/** The month's top earners, each with the name its `userData` gives (the id's start when none). */
async function topEarners(year: number, month: number) {
  const board = await api.coinLeaderboard({ type: 'earner', year, month, limit: 10 });
  const names = await namesOf(
    board.data.map((e) => e.userId),
    (userId) => api.getPartnerUser({ userId }),
  );
  return board.data.map((e) => ({ label: names.get(e.userId) ?? shortId(e.userId), value: Number(e.coins) }));
}

export function Overview() {
  const now = new Date();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const summary = useLoad(() => api.coinSummary({ year, month }), [year, month]);
  const users = useLoad(() => api.listUsers({ limit: 1 }), []);
  const rules = useLoad(() => api.listRules({ status: 'active', limit: 1 }), []);
  const earners = useLoad(() => topEarners(year, month), [year, month]);
  const monthName = now.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  const period = `${monthName} ${year}`;
  return (
    <Page title="Overview">
      <Alert>{summary.error ?? users.error ?? rules.error ?? earners.error}</Alert>
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
          title={`Transfers per day, ${period}`}
          unit="transfers"
          categoryTitle={`Day of ${monthName} (UTC)`}
          valueTitle="Transfers"
          empty={`No transfers yet in ${period}.`}
          bars={summary.data.days.map((d) => ({
            label: String(Number(d.day.slice(8, 10))),
            value: d.transfers,
          }))}
        />
      )}
      {earners.data && (
        <BarChart
          title={`Top earners, ${period}`}
          unit="coins"
          categoryTitle="User"
          valueTitle="Coins earned"
          empty={`No user has earned coins yet in ${period}.`}
          horizontal
          bars={earners.data}
        />
      )}
    </Page>
  );
}
