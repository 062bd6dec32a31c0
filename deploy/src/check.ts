/**
 * `node deploy/src/check.ts [repo-root]`: renders every kustomize overlay and validates it against
 * the Kubernetes schemas, validates docker-compose.yml against the Compose schema, checks that
 * the Grafana dashboards and the alert rules use only metrics the code declares, that the alert rules
 * are deployed, tested and linked to their runbooks, that every command a runbook names exists,
 * and that the image and compose run the services with the runtime flags `make up` uses; offline.
 * Each kustomization must also hold its topology (topology.ts): disruption budgets and resource
 * requests, and in an overlay default-deny networking, TLS for the gateway's Ingress only, and a
 * Postgres connection budget that the pools at their maximum replicas fit. What on-call opens must be
 * ready (on-call.ts): Grafana and Alertmanager in compose, the dashboards in the overlay, a backup schedule.
 * And its security (security.ts): a database role per service, and in an overlay TLS to Postgres,
 * NATS and Redis.
 * Exits non-zero naming each problem. `make test` runs it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkAlerts } from './alerts.ts';
import { validateCompose } from './compose.ts';
import { checkDashboards } from './dashboards.ts';
import { type Problem, renderOverlay, validateManifests } from './kubernetes.ts';
import { checkOnCall } from './on-call.ts';
import { checkRunbookCommands } from './runbooks.ts';
import { checkRuntimeFlags } from './runtime-flags.ts';
import { checkSecurity } from './security.ts';
import { checkTopology, describeBudget } from './topology.ts';

/** `k8s/base` and each `k8s/overlays/<name>`: every directory a platform team may apply. */
export function overlays(root: string): string[] {
  const dirs = [join(root, 'k8s', 'base')];
  const overlaysDir = join(root, 'k8s', 'overlays');
  if (existsSync(overlaysDir))
    for (const name of readdirSync(overlaysDir).sort()) dirs.push(join(overlaysDir, name));
  return dirs.filter((d) => existsSync(join(d, 'kustomization.yaml')));
}

export interface CheckResult {
  checked: { source: string; resources: number }[];
  problems: Problem[];
  /** Each rendering's Postgres connection budget, as computed. */
  budgets: { source: string; text: string }[];
}

export async function checkDeployment(root: string): Promise<CheckResult> {
  const checked: CheckResult['checked'] = [];
  const problems: Problem[] = [];
  const budgets: CheckResult['budgets'] = [];
  // kustomize takes a second or two to start: the overlays render side by side.
  const rendered = await Promise.all(
    overlays(root).map(async (dir) => {
      const source = relative(root, dir);
      try {
        return { source, yaml: await renderOverlay(dir) };
      } catch (err) {
        const stderr = (err as { stderr?: string }).stderr?.trim();
        return { source, error: `kustomize build failed: ${stderr || err}` };
      }
    }),
  );
  for (const r of rendered) {
    if (r.error !== undefined) {
      problems.push({ source: r.source, resource: r.source, message: r.error });
      continue;
    }
    problems.push(...(await validateManifests(r.source, r.yaml)));
    const overlay = r.source.startsWith(join('k8s', 'overlays'));
    const topology = await checkTopology(root, r.source, r.yaml, { overlay });
    problems.push(...topology.problems);
    problems.push(...checkSecurity(r.yaml, { overlay }).map((p) => ({ source: r.source, ...p })));
    if (topology.budget) budgets.push({ source: r.source, text: describeBudget(topology.budget) });
    checked.push({ source: r.source, resources: r.yaml.split(/^---$/m).filter((d) => d.trim()).length });
  }
  if (checked.length + problems.length === 0)
    problems.push({ source: 'k8s', resource: 'k8s', message: 'no kustomization found' });
  const compose = join(root, 'docker-compose.yml');
  problems.push(...(await validateCompose(compose, relative(root, compose))));
  checked.push({ source: relative(root, compose), resources: 1 });
  problems.push(...checkDashboards(root));
  checked.push({ source: 'deploy/grafana', resources: 1 });
  problems.push(...checkAlerts(root));
  checked.push({ source: 'deploy/alerts', resources: 1 });
  problems.push(...checkRunbookCommands(root));
  checked.push({ source: 'docs/operating/runbooks.md', resources: 1 });
  problems.push(...checkRuntimeFlags(root));
  checked.push({ source: 'Dockerfile', resources: 1 });
  problems.push(...checkOnCall(root));
  checked.push({
    source: 'on call: Grafana, Alertmanager, dashboards ConfigMap, backup schedule',
    resources: 1,
  });
  return { checked, problems, budgets };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(fileURLToPath(import.meta.url), '../../..'));
  const { checked, problems, budgets } = await checkDeployment(root);
  for (const c of checked)
    console.log(`checked ${c.source}${c.resources > 1 ? ` (${c.resources} resources)` : ''}`);
  for (const b of budgets) console.log(`Postgres connection budget of ${b.source}: ${b.text}`);
  for (const p of problems) console.error(`✗ ${p.source}: ${p.resource}: ${p.message}`);
  if (problems.length) {
    console.error(`${problems.length} problem(s) in the deployment files`);
    process.exit(1);
  }
  console.log('deployment files valid: every kustomize overlay, docker-compose.yml and the dashboards');
}
