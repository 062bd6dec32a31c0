import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAlerts } from '../src/alerts.ts';
import { checkDashboards } from '../src/dashboards.ts';
import { checkOnCall } from '../src/on-call.ts';
import { checkRunbookCommands } from '../src/runbooks.ts';
import { brokenCopy, ROOT, RUNBOOKS_AT, removeCopiesAfterAll } from './broken-copy.ts';

removeCopiesAfterAll();

describe('deployment files: dashboards, alerts, on-call and runbooks', () => {
  it('refuses a dashboard panel on a metric no code declares', async () => {
    const dir = await brokenCopy('deploy/grafana/coin-rewards.json', (t) =>
      t.replace('coin_outbox_backlog_events', 'coin_outbox_backlog'),
    );
    // The metrics the code declares are the repository's; the dashboard is the broken copy's.
    const problems = checkDashboards(ROOT, join(dir, 'deploy', 'grafana'));
    expect(problems).toEqual([
      {
        source: relative(ROOT, join(dir, 'deploy', 'grafana', 'coin-rewards.json')),
        resource: 'coin_outbox_backlog',
        message: 'no code declares this metric',
      },
    ]);
  });

  it('refuses an alert rule not deployed, without a runbook section or without a rule test', async () => {
    const dir = await brokenCopy('deploy/alerts/coin-rewards.rules.yml', (t) =>
      t
        .replace(`runbook_url: ${RUNBOOKS_AT}#coinoutboxstuck`, `runbook_url: ${RUNBOOKS_AT}#outbox`)
        .replace(
          `runbook_url: ${RUNBOOKS_AT}#coinhttp5xxratio`,
          'runbook_url: docs/operating/runbooks.md#coinhttp5xxratio',
        )
        .replace('alert: CoinDbTimeouts', 'alert: CoinDbTimeoutsRenamed')
        .replace(
          `runbook_url: ${RUNBOOKS_AT}#coindbtimeouts`,
          `runbook_url: ${RUNBOOKS_AT}#coindbpoolsaturated`,
        ),
    );
    const problems = checkAlerts(dir).map((p) => `${p.resource}: ${p.message}`);
    const notBuilt = 'is not RUNBOOK_BASE_URL#<a section of docs/operating/runbooks.md>';
    expect(problems).toEqual([
      `CoinHttp5xxRatio: runbook_url docs/operating/runbooks.md#coinhttp5xxratio ${notBuilt}`,
      `CoinOutboxStuck: runbook_url ${RUNBOOKS_AT}#outbox ${notBuilt}`,
      'CoinDbTimeoutsRenamed: no rule test shows it firing',
      'CoinDbTimeoutsRenamed: no rule test shows it quiet on a healthy series',
      'PrometheusRule/coin-rewards: differs from deploy/alerts/coin-rewards.rules.yml: run npm run alerts:sync',
    ]);
  });

  it('refuses an on-call stack that is not wired: Grafana, Alertmanager, dashboards, backups', async () => {
    const unrouted = await brokenCopy('deploy/alertmanager/alertmanager.yml', (t) =>
      t.replace('receiver: on-call', 'receiver: pager'),
    );
    expect(checkOnCall(unrouted).map((p) => `${p.resource}: ${p.message}`)).toEqual([
      'deploy/alertmanager/alertmanager.yml: a route sends to pager, which is not a receiver',
    ]);
    const unsent = await brokenCopy('deploy/prometheus.yml', (t) =>
      t.replace('alertmanager:9093', 'am:9093'),
    );
    expect(checkOnCall(unsent).map((p) => p.message)).toEqual([
      'its configuration sends alerts to no Alertmanager of the stack (alertmanager:9093)',
    ]);
    const stale = await brokenCopy('deploy/grafana/coin-rewards.json', (t) =>
      t.replace('"title": "Coin rewards"', '"title": "Coin rewards, renamed"'),
    );
    expect(checkOnCall(stale).map((p) => `${p.source}: ${p.message}`)).toEqual([
      'k8s/overlays/production/grafana-dashboard.yaml: differs from deploy/grafana: run npm run dashboards:sync',
    ]);
    const unscheduled = await brokenCopy('k8s/base/backup-cronjob.yaml', (t) =>
      t.replace('"--into", "/backups"', '"--into", "/tmp"'),
    );
    expect(checkOnCall(unscheduled).map((p) => p.resource)).toEqual(['CronJob/backup']);
  });

  it('refuses an alert on a metric no code declares', async () => {
    const dir = await brokenCopy('deploy/alerts/coin-rewards.rules.yml', (t) =>
      t.replace('(coin_consumer_parked_events) > 0', '(coin_consumer_parked) > 0'),
    );
    const problems = checkAlerts(dir).map((p) => `${p.resource}: ${p.message}`);
    expect(problems).toEqual([
      'CoinConsumerParked: no code declares the metric coin_consumer_parked',
      'PrometheusRule/coin-rewards: differs from deploy/alerts/coin-rewards.rules.yml: run npm run alerts:sync',
    ]);
  });

  it('refuses a runbook command, sub-command, queue or flag that does not exist', async () => {
    expect(checkRunbookCommands(ROOT)).toEqual([]);
    const dir = await brokenCopy('docs/operating/runbooks.md', (t) =>
      t
        .replace('`npm run parked -- events list --durable <durable>`', '`npm run parked -- events lsit`')
        .replace(
          '`npm run parked -- events replay --durable <durable> --all`',
          '`npm run parked -- events replay --every`',
        )
        .replace(
          '`npm run parked -- jobs identity list mail`',
          '`npm run parked -- jobs identity list mails`',
        )
        .replace('`npm run ledger:verify -w @coin/wallet`', '`npm run ledger:check -w @coin/wallet`')
        .replace(
          'node services/wallet/src/tools/verify-ledger.ts',
          'node services/wallet/src/verify-ledger.ts',
        ),
    );
    const problems = checkRunbookCommands(ROOT, join(dir, 'docs', 'operating', 'runbooks.md')).map(
      (p) => `${p.resource}: ${p.message}`,
    );
    expect(problems.sort()).toEqual(
      [
        'kubectl -n coin-rewards exec deploy/wallet -- node services/wallet/src/verify-ledger.ts: services/wallet/src/verify-ledger.ts does not exist',
        'npm run parked -- events lsit: coin-rewards: parked knows no lsit',
        'npm run parked -- events replay --every: coin-rewards: parked knows no --every',
        'npm run ledger:check -w @coin/wallet: @coin/wallet has no script ledger:check',
        'npm run parked -- jobs identity list mails: coin-rewards: parked knows no mails',
      ].sort(),
    );
  });
});
