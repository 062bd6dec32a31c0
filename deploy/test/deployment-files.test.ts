import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAlerts, runbookBaseUrl } from '../src/alerts.ts';
import { checkDeployment } from '../src/check.ts';
import { validateCompose } from '../src/compose.ts';
import { checkDashboards } from '../src/dashboards.ts';
import { checkOnCall } from '../src/on-call.ts';
import { checkRunbookCommands } from '../src/runbooks.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHECK = fileURLToPath(new URL('../src/check.ts', import.meta.url));
const RUNBOOKS_AT = runbookBaseUrl(ROOT);
const copies: string[] = [];

/** A copy of the deployment files with one edit applied, to show that the check catches it. */
async function brokenCopy(file: string, edit: (text: string) => string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coin-deploy-'));
  copies.push(dir);
  await cp(join(ROOT, 'k8s'), join(dir, 'k8s'), { recursive: true });
  await cp(join(ROOT, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
  await cp(join(ROOT, 'deploy', 'grafana'), join(dir, 'deploy', 'grafana'), { recursive: true });
  await cp(join(ROOT, 'deploy', 'alerts'), join(dir, 'deploy', 'alerts'), { recursive: true });
  await cp(join(ROOT, 'deploy', 'alertmanager'), join(dir, 'deploy', 'alertmanager'), { recursive: true });
  await cp(join(ROOT, 'deploy', 'prometheus.yml'), join(dir, 'deploy', 'prometheus.yml'));
  await cp(join(ROOT, 'docs'), join(dir, 'docs'), { recursive: true });
  await cp(join(ROOT, 'package.json'), join(dir, 'package.json'));
  await cp(join(ROOT, 'Makefile'), join(dir, 'Makefile'));
  await cp(join(ROOT, 'Dockerfile'), join(dir, 'Dockerfile'));
  // The code whose metrics and commands the files may name, unchanged: linked, not copied.
  for (const src of ['libs', 'services', 'backup', 'scripts']) await symlink(join(ROOT, src), join(dir, src));
  const target = join(dir, file);
  const before = await readFile(target, 'utf8');
  const after = edit(before);
  expect(after).not.toBe(before);
  await writeFile(target, after);
  return dir;
}

/** A service's kustomization with one more patch: a strategic merge, or JSON patches of a Deployment. */
function withPatch(kustomization: string, patch: string, deployment?: string): string {
  const indented = patch.replace(/^/gm, '      ');
  const target = deployment ? `    target:\n      kind: Deployment\n      name: ${deployment}\n` : '';
  return `${kustomization}patches:\n  - patch: |-\n${indented}\n${target}`;
}

afterAll(async () => {
  await Promise.all(copies.map((d) => rm(d, { recursive: true, force: true })));
});

describe('deployment files', () => {
  it('render every kustomize overlay and pass the Kubernetes and Compose schemas', async () => {
    const { checked, problems } = await checkDeployment(ROOT);
    expect(problems).toEqual([]);
    expect(checked.map((c) => c.source)).toEqual([
      'k8s/base',
      'k8s/overlays/production',
      'docker-compose.yml',
      'deploy/grafana',
      'deploy/alerts',
      'docs/operating/runbooks.md',
      'Dockerfile',
      'on call: Grafana, Alertmanager, dashboards ConfigMap, backup schedule',
    ]);
    // Seven deployables, each with a Deployment, Service, HPA and PDB, in both renderings.
    expect(checked[0].resources).toBeGreaterThanOrEqual(28);
    expect(checked[1].resources).toBeGreaterThanOrEqual(28);
  });

  it('refuses a misspelt field, a value of the wrong type and a missing required field', async () => {
    const dir = await brokenCopy('k8s/components/service/service.yaml', (t) =>
      t
        .replace('livenessProbe:', 'livenesProbe:')
        .replace('  replicas: 1\n', '  replicas: one\n')
        .replace('      containers:\n', '      initContainers:\n'),
    );
    const { problems } = await checkDeployment(dir);
    const base = problems.filter((p) => p.source === 'k8s/base' && p.resource === 'Deployment/identity');
    const messages = base.map((p) => p.message).join('\n');
    // What the JSON schema alone lets through, and the API server refuses:
    expect(messages).toContain('spec.template.spec.initContainers[0].livenesProbe: unknown field');
    expect(messages).toContain('replicas must be integer');
    expect(messages).toContain('spec/template/spec must have required property containers');
    // The production overlay renders the same base: it fails too.
    expect(problems.some((p) => p.source === 'k8s/overlays/production')).toBe(true);
  });

  it("refuses a template field that no replacement of the service's name reaches", async () => {
    const dir = await brokenCopy('k8s/components/service/service.yaml', (t) =>
      t.replace(
        '      enableServiceLinks: false\n',
        '      enableServiceLinks: false\n      serviceAccountName: SERVICE\n',
      ),
    );
    const { problems } = await checkDeployment(dir);
    const base = problems.filter((p) => p.source === 'k8s/base').map((p) => `${p.resource}: ${p.message}`);
    expect(base).toContain(
      'Deployment/wallet: holds the placeholder SERVICE: k8s/components/service replaces no such field',
    );
    expect(base).toHaveLength(6);
  });

  it('fails when an overlay does not render', async () => {
    const dir = await brokenCopy('k8s/overlays/production/kustomization.yaml', (t) =>
      t.replace('  - namespace.yaml\n', '  - namespace.yaml\n  - missing.yaml\n'),
    );
    const { problems } = await checkDeployment(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0].source).toBe('k8s/overlays/production');
    expect(problems[0].message).toMatch(/kustomize build failed: .*missing\.yaml/);
  });

  it('refuses a compose file with an unknown key, a bad duration or a dependency on no service', async () => {
    const dir = await brokenCopy('docker-compose.yml', (t) =>
      t
        .replace('    interval: 2s\n', '    interval: two seconds\n')
        .replace('    restart: "no"\n', '    restart: "no"\n    restrat: always\n')
        .replace('    depends_on: [jaeger]\n', '    depends_on: [jaegr]\n'),
    );
    const problems = await validateCompose(join(dir, 'docker-compose.yml'), 'docker-compose.yml');
    const text = problems.map((p) => `${p.resource}: ${p.message}`).join('\n');
    expect(text).toContain('/services/postgres/healthcheck/interval: must match format "duration"');
    expect(text).toContain('must NOT have additional properties (restrat)');
    expect(text).toContain('/services/otel-collector: depends_on names no service: jaegr');
  });

  it("refuses a compose service on another's database role, the shared superuser or a migration URL", async () => {
    const dir = await brokenCopy('docker-compose.yml', (t) =>
      t
        .replace(
          'LEADERBOARD_DATABASE_URL: postgres://coin_leaderboard:dev-only-password@postgres:5432/coin_leaderboard',
          'LEADERBOARD_DATABASE_URL: postgres://coin_wallet:dev-only-password@postgres:5432/coin_wallet',
        )
        .replace(
          'WALLET_DATABASE_URL: postgres://coin_wallet:dev-only-password@postgres:5432/coin_wallet',
          'WALLET_DATABASE_URL: postgres://postgres:dev-only-password@postgres:5432/coin_wallet\n      WALLET_MIGRATION_DATABASE_URL: postgres://coin_migrate:x@postgres:5432/coin_wallet',
        ),
    );
    const problems = await validateCompose(join(dir, 'docker-compose.yml'), 'docker-compose.yml');
    const text = problems.map((p) => `${p.resource}: ${p.message}`).join('\n');
    expect(text).toContain(
      '/services/leaderboard: LEADERBOARD_DATABASE_URL must name its own role and database',
    );
    expect(text).toContain('/services/wallet: WALLET_DATABASE_URL must name its own role and database');
    expect(text).toContain(
      '/services/wallet: WALLET_MIGRATION_DATABASE_URL: a service holds only its own database role',
    );
  });

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

  it('states the Postgres connection budget of each rendering, under max_connections', async () => {
    const { budgets } = await checkDeployment(ROOT);
    for (const b of budgets) console.log(`${b.source}: ${b.text}`);
    expect(budgets.map((b) => b.source)).toEqual(['k8s/base', 'k8s/overlays/production']);
  });

  it('passes the production overlay with a role per service and TLS to Postgres, NATS and Redis, and refuses one without', async () => {
    const dir = await brokenCopy('k8s/overlays/production/config.yaml', (t) =>
      t
        .replace(/tls:\/\/nats-/g, 'nats://nats-')
        .replace('REDIS_URL: rediss://', 'REDIS_URL: redis://')
        .replace('?sslmode=verify-full&sslrootcert=/etc/coin/postgres-ca/ca.crt', ''),
    );
    const edit = async (file: string, change: (t: string) => string) => {
      const before = await readFile(join(dir, file), 'utf8');
      await writeFile(join(dir, file), change(before));
    };
    await edit('k8s/overlays/production/nats-config.yaml', (t) => t.replace('        verify: true\n', ''));
    await edit('k8s/overlays/production/nats-config.yaml', (t) =>
      t.replace(/ {4}tls \{\n(.*\n){4} {4}\}\n/, ''),
    );
    // The leaderboard given the wallet's variable: another service's database.
    await edit('k8s/base/leaderboard/name.yaml', (t) => t.replace('env: LEADERBOARD', 'env: WALLET'));
    const { problems } = await checkDeployment(dir);
    const found = problems.map((p) => `${p.source}: ${p.resource}: ${p.message}`);
    for (const expected of [
      'k8s/base: Deployment/leaderboard: WALLET_DATABASE_URL: a service holds only its own database role',
      'k8s/base: Deployment/leaderboard: LEADERBOARD_DATABASE_URL must connect as coin_leaderboard to coin_leaderboard',
      'k8s/overlays/production: Deployment/wallet: WALLET_DATABASE_URL has no sslmode=verify-full',
      'k8s/overlays/production: Job/migrate: IDENTITY_MIGRATION_DATABASE_URL has no sslmode=verify-full',
      'k8s/overlays/production: Deployment/wallet: NATS_URL nats://nats-0.nats-cluster:4222,',
      'k8s/overlays/production: Deployment/gateway: REDIS_URL redis://redis.cache.svc.cluster.local:6380 is not rediss://',
      'k8s/overlays/production: ConfigMap/nats: the NATS server takes clients without TLS',
      'k8s/overlays/production: ConfigMap/nats: the cluster routes are not TLS with certificates checked both ways',
    ])
      expect(
        found.some((f) => f.startsWith(expected)),
        `${expected}\nin\n${found.join('\n')}`,
      ).toBe(true);
    // The files as they are pass: every check above holds there.
    const ok = await checkDeployment(ROOT);
    expect(ok.problems).toEqual([]);
  }, 90_000);

  it('refuses a Deployment without a disruption budget or requests, no default deny, an Ingress beside the gateway or without TLS, and pools over max_connections', async () => {
    const dir = await brokenCopy('k8s/base/wallet/kustomization.yaml', (t) =>
      withPatch(
        t,
        '$patch: delete\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: wallet',
      ),
    );
    const edit = async (file: string, change: (t: string) => string) => {
      const before = await readFile(join(dir, file), 'utf8');
      const after = change(before);
      expect(after).not.toBe(before);
      await writeFile(join(dir, file), after);
    };
    await edit('k8s/base/rules/kustomization.yaml', (t) =>
      withPatch(t, '- op: remove\n  path: /spec/template/spec/containers/0/resources/requests/cpu', 'rules'),
    );
    await edit('k8s/overlays/production/network-policy.yaml', (t) =>
      t.replace(
        'name: default-deny\nspec:\n  podSelector: {}\n  policyTypes: [Ingress, Egress]',
        'name: default-deny\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]',
      ),
    );
    await edit('k8s/overlays/production/ingress.yaml', (t) =>
      t
        .replace('hosts: [rewards.example.com]', 'hosts: [other.example.com]')
        .replace(
          'name: gateway\n                port:\n                  name: http',
          'name: wallet\n                port:\n                  name: metrics',
        ),
    );
    await edit('k8s/overlays/production/postgres-budget.yaml', (t) => t.replace('"400"', '"300"'));
    const { problems } = await checkDeployment(dir);
    const found = problems.map((p) => `${p.source}: ${p.resource}: ${p.message}`);
    expect(found).toEqual([
      'k8s/base: Deployment/rules: container rules requests no cpu and memory',
      'k8s/base: Deployment/wallet: no PodDisruptionBudget selects its pods',
      'k8s/overlays/production: Deployment/wallet: no PodDisruptionBudget selects its pods',
      'k8s/overlays/production: NetworkPolicy: no default-deny policy (every pod, Ingress and Egress, no rule)',
      'k8s/overlays/production: Ingress/gateway: exposes wallet: only the gateway may have an Ingress',
      'k8s/overlays/production: Ingress/gateway: host rewards.example.com has no TLS',
      expect.stringMatching(
        /^k8s\/overlays\/production: ConfigMap\/postgres-connection-budget: Postgres connections at maximum replicas exceed the budget: .* = 334 of max_connections 300$/,
      ),
    ]);
  });

  it('refuses a service without its own NATS user and a NATS server that loads no users', async () => {
    const dir = await brokenCopy('k8s/base/webhooks/kustomization.yaml', (t) =>
      withPatch(
        t,
        '- op: replace\n  path: /spec/template/spec/containers/0/env/1/valueFrom/secretKeyRef/name\n  value: coin-nats-identity',
        'webhooks',
      ),
    );
    const conf = join(dir, 'k8s/base/infra/nats.yaml');
    await writeFile(conf, (await readFile(conf, 'utf8')).replace('include ./auth/auth.conf', ''));
    const { problems } = await checkDeployment(dir);
    expect(problems.map((p) => `${p.source}: ${p.resource}: ${p.message}`)).toEqual([
      'k8s/base: Deployment/webhooks: takes no NATS_NKEY_SEED from the Secret coin-nats-webhooks',
      'k8s/base: ConfigMap/nats: the NATS server loads no users (include ./auth/auth.conf): anyone may connect',
      'k8s/overlays/production: Deployment/webhooks: takes no NATS_NKEY_SEED from the Secret coin-nats-webhooks',
    ]);
  });

  it('refuses an image or a compose service that starts node without the runtime launcher', async () => {
    const dir = await brokenCopy('Dockerfile', (t) =>
      t.replace(
        'ENTRYPOINT ["/bin/sh", "/app/libs/startup/bin/node-service.sh"]',
        'ENTRYPOINT ["node", "--max-semi-space-size=4"]',
      ),
    );
    const compose = join(dir, 'docker-compose.yml');
    await writeFile(
      compose,
      (await readFile(compose, 'utf8')).replace(
        'exec /bin/sh libs/startup/bin/node-service.sh "$$@"',
        'exec node --heap-growing-percent=30 "$$@"',
      ),
    );
    const { problems } = await checkDeployment(dir);
    expect(problems.map((p) => `${p.source}: ${p.resource}: ${p.message}`)).toEqual([
      'Dockerfile: ENTRYPOINT: must be ["/bin/sh","/app/libs/startup/bin/node-service.sh"]',
      expect.stringMatching(
        /^docker-compose\.yml: line \d+: starts node without libs\/startup\/bin\/node-service\.sh: - NATS_NKEY_SEED=.* exec node --heap-growing-percent=30/,
      ),
      'Dockerfile: Dockerfile: sets runtime flags outside libs/startup/bin/node-service.sh',
    ]);
  });

  it('exits non-zero from the command line, naming the problem', async () => {
    const dir = await brokenCopy('k8s/base/gateway.yaml', (t) =>
      t.replace('readinessProbe:', 'readynessProbe:'),
    );
    const failed = await promisify(execFile)(process.execPath, [CHECK, dir]).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(
      'Deployment/gateway: spec.template.spec.containers[0].readynessProbe: unknown field',
    );
  });
});
