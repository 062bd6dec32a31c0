import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkDeployment } from '../src/check.ts';
import { brokenCopy, CHECK, ROOT, removeCopiesAfterAll, withPatch } from './broken-copy.ts';

removeCopiesAfterAll();

describe('deployment files: kustomize overlays', () => {
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
