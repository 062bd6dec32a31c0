import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAlerts } from '../src/alerts.ts';
import { checkDeployment } from '../src/check.ts';
import { validateCompose } from '../src/compose.ts';
import { checkDashboards } from '../src/dashboards.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHECK = fileURLToPath(new URL('../src/check.ts', import.meta.url));
const copies: string[] = [];

/** A copy of the deployment files with one edit applied, to show that the check catches it. */
async function brokenCopy(file: string, edit: (text: string) => string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coin-deploy-'));
  copies.push(dir);
  await cp(join(ROOT, 'k8s'), join(dir, 'k8s'), { recursive: true });
  await cp(join(ROOT, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
  await cp(join(ROOT, 'deploy', 'grafana'), join(dir, 'deploy', 'grafana'), { recursive: true });
  await cp(join(ROOT, 'deploy', 'alerts'), join(dir, 'deploy', 'alerts'), { recursive: true });
  await cp(join(ROOT, 'docs'), join(dir, 'docs'), { recursive: true });
  // The code whose metrics the dashboards may use, unchanged: linked, not copied.
  for (const src of ['libs', 'services']) await symlink(join(ROOT, src), join(dir, src));
  const target = join(dir, file);
  const before = await readFile(target, 'utf8');
  const after = edit(before);
  expect(after).not.toBe(before);
  await writeFile(target, after);
  return dir;
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
    ]);
    // Seven deployables, each with a Deployment, Service, HPA and PDB, in both renderings.
    expect(checked[0].resources).toBeGreaterThanOrEqual(28);
    expect(checked[1].resources).toBeGreaterThanOrEqual(28);
  });

  it('refuses a misspelt field, a value of the wrong type and a missing required field', async () => {
    const dir = await brokenCopy('k8s/base/identity.yaml', (t) =>
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
        .replace('runbook_url: docs/runbooks.md#coinoutboxstuck', 'runbook_url: docs/runbooks.md#outbox')
        .replace('alert: CoinDbTimeouts', 'alert: CoinDbTimeoutsRenamed')
        .replace(
          'runbook_url: docs/runbooks.md#coindbtimeouts',
          'runbook_url: docs/runbooks.md#coindbpoolsaturated',
        ),
    );
    const problems = checkAlerts(dir).map((p) => `${p.resource}: ${p.message}`);
    expect(problems).toEqual([
      'CoinOutboxStuck: runbook_url docs/runbooks.md#outbox names no section of docs/runbooks.md',
      'CoinDbTimeoutsRenamed: no rule test shows it firing',
      'CoinDbTimeoutsRenamed: no rule test shows it quiet on a healthy series',
      'PrometheusRule/coin-rewards: differs from deploy/alerts/coin-rewards.rules.yml: run npm run alerts:sync',
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
