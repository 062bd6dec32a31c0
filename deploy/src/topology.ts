/**
 * What a rendered kustomization must hold beyond its schemas, so that it survives a node loss and
 * exposes only what it means to: every Deployment (and, in an overlay, every StatefulSet) has a
 * PodDisruptionBudget and resource requests; an overlay has a default-deny NetworkPolicy, an Ingress
 * for the gateway only, with TLS for every host; and the Postgres pools, at their maximum replicas,
 * stay under the server's max_connections (ConfigMap `postgres-connection-budget`); every service
 * connects to NATS as its own user (Secret `coin-nats-<service>`) and the server loads those users.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { Problem } from './kubernetes.ts';

interface Container {
  name: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, string> };
}
interface PodSpec {
  containers: Container[];
}
interface Resource {
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown> & {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> };
    template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpec };
  };
  data?: Record<string, string>;
}

const BUDGET = 'postgres-connection-budget';
/**
 * Connections a replica opens beside its pool: the advisory lock of the migrations at start, and in
 * the wallet the lock of the periodic ledger verification too.
 */
const OUTSIDE_POOL: Record<string, number> = { wallet: 2 };

function parse(yamlText: string): Resource[] {
  return parseAllDocuments(yamlText)
    .map((d) => d.toJS() as Resource | null)
    .filter((d): d is Resource => !!d?.kind);
}

function matches(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  return !!selector && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

export interface BudgetLine {
  deployment: string;
  pool: number;
  outside: number;
  maxReplicas: number;
}

export interface Budget {
  lines: BudgetLine[];
  databases: number;
  reserved: number;
  total: number;
  maxConnections: number;
}

/** The service a container runs (`services/<name>/src/main.ts`), if any. */
function serviceOf(c: Container): string | undefined {
  return c.args?.map((a) => a.match(/^services\/([\w-]+)\/src\/main\.ts$/)?.[1]).find(Boolean);
}

/**
 * The pool a container's process will open, as its own configuration function resolves it (defaults,
 * floors such as the wallet's) from the env the manifests give it: ConfigMaps and literal values.
 * Secrets are not in the manifests; the mode is development so that no production-only secret is needed.
 */
async function poolOf(
  root: string,
  service: string,
  c: Container,
  configMaps: Map<string, Record<string, string>>,
) {
  const env: NodeJS.ProcessEnv = {};
  for (const from of c.envFrom ?? [])
    if (from.configMapRef) Object.assign(env, configMaps.get(from.configMapRef.name) ?? {});
  for (const e of c.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
  env.APP_MODE = 'development';
  // The real path: a checked copy may link the services, and their packages resolve from there.
  const file = realpathSync(join(root, 'services', service, 'src', 'config.ts'));
  const mod = await import(pathToFileURL(file).href);
  const config = mod[`${service}Config`](env) as { DB_POOL_MAX?: number };
  return config.DB_POOL_MAX ?? 0;
}

async function connectionBudget(root: string, resources: Resource[]): Promise<Budget | Problem[]> {
  const configMaps = new Map(
    resources.filter((r) => r.kind === 'ConfigMap').map((r) => [r.metadata.name, r.data ?? {}]),
  );
  const hpaMax = new Map(
    resources
      .filter((r) => r.kind === 'HorizontalPodAutoscaler')
      .map((r) => {
        const spec = (r.spec ?? {}) as { scaleTargetRef?: { name: string }; maxReplicas?: number };
        return [spec.scaleTargetRef?.name, spec.maxReplicas] as const;
      }),
  );
  const lines: BudgetLine[] = [];
  for (const d of resources.filter((r) => r.kind === 'Deployment')) {
    for (const c of d.spec?.template?.spec?.containers ?? []) {
      const service = serviceOf(c);
      if (!service) continue;
      const pool = await poolOf(root, service, c, configMaps);
      if (!pool) continue;
      lines.push({
        deployment: d.metadata.name,
        pool,
        outside: OUTSIDE_POOL[service] ?? 1,
        maxReplicas: hpaMax.get(d.metadata.name) ?? d.spec?.replicas ?? 1,
      });
    }
  }
  if (lines.length === 0) return { lines, databases: 0, reserved: 0, total: 0, maxConnections: 0 };
  const budget = configMaps.get(BUDGET);
  if (!budget?.max_connections)
    return [
      { source: '', resource: `ConfigMap/${BUDGET}`, message: 'missing: the pools have no budget to fit' },
    ];
  const reserved = Number(budget.reserved ?? 0);
  // The migrate Job and a backup each hold one connection per database at most.
  const databases = lines.length;
  const total =
    lines.reduce((sum, l) => sum + l.maxReplicas * (l.pool + l.outside), 0) + 2 * databases + reserved;
  return { lines, databases, reserved, total, maxConnections: Number(budget.max_connections) };
}

export function describeBudget(b: Budget): string {
  const parts = b.lines.map((l) => `${l.deployment} ${l.maxReplicas}×(${l.pool}+${l.outside})`);
  return `${parts.join(' + ')} + migrate ${b.databases} + backup ${b.databases} + reserved ${b.reserved} = ${b.total} of max_connections ${b.maxConnections}`;
}

export async function checkTopology(
  root: string,
  source: string,
  yamlText: string,
  opts: { overlay: boolean },
): Promise<{ problems: Problem[]; budget?: Budget }> {
  const problems: Problem[] = [];
  const fail = (resource: string, message: string) => problems.push({ source, resource, message });
  const resources = parse(yamlText);
  const pdbs = resources.filter((r) => r.kind === 'PodDisruptionBudget');
  const workloads = resources.filter(
    (r) => r.kind === 'Deployment' || (opts.overlay && r.kind === 'StatefulSet'),
  );
  for (const w of workloads) {
    const id = `${w.kind}/${w.metadata.name}`;
    const labels = w.spec?.template?.metadata?.labels ?? {};
    if (
      !pdbs.some((p) =>
        matches((p.spec?.selector as { matchLabels?: Record<string, string> })?.matchLabels, labels),
      )
    )
      fail(id, 'no PodDisruptionBudget selects its pods');
    for (const c of w.spec?.template?.spec?.containers ?? [])
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory)
        fail(id, `container ${c.name} requests no cpu and memory`);
  }
  for (const d of resources.filter((r) => r.kind === 'Deployment'))
    for (const c of d.spec?.template?.spec?.containers ?? []) {
      const service = serviceOf(c);
      const seed = c.env?.find((e) => e.name === 'NATS_NKEY_SEED')?.valueFrom?.secretKeyRef;
      if (service && (seed?.name !== `coin-nats-${service}` || seed.key !== 'NATS_NKEY_SEED'))
        fail(`Deployment/${d.metadata.name}`, `takes no NATS_NKEY_SEED from the Secret coin-nats-${service}`);
    }
  const natsConf = resources.find((r) => r.kind === 'ConfigMap' && r.metadata.name === 'nats')?.data?.[
    'nats.conf'
  ];
  if (natsConf !== undefined && !/^\s*include \.\/auth\/auth\.conf\s*$/m.test(natsConf))
    fail('ConfigMap/nats', 'the NATS server loads no users (include ./auth/auth.conf): anyone may connect');
  if (opts.overlay) {
    const denies = resources.filter(
      (r) =>
        r.kind === 'NetworkPolicy' &&
        Object.keys((r.spec?.podSelector as object) ?? { x: 1 }).length === 0 &&
        ['Ingress', 'Egress'].every((t) => (r.spec?.policyTypes as string[] | undefined)?.includes(t)) &&
        !(r.spec?.ingress as unknown[] | undefined)?.length &&
        !(r.spec?.egress as unknown[] | undefined)?.length,
    );
    if (denies.length === 0)
      fail('NetworkPolicy', 'no default-deny policy (every pod, Ingress and Egress, no rule)');
    const ingresses = resources.filter((r) => r.kind === 'Ingress');
    if (ingresses.length === 0) fail('Ingress', 'the gateway has no Ingress');
    for (const ing of ingresses) {
      const id = `Ingress/${ing.metadata.name}`;
      const rules = (ing.spec?.rules ?? []) as {
        host?: string;
        http?: { paths: { backend: { service?: { name: string } } }[] };
      }[];
      const backends = new Set(rules.flatMap((r) => r.http?.paths.map((p) => p.backend.service?.name) ?? []));
      const defaultBackend = (ing.spec?.defaultBackend as { service?: { name: string } } | undefined)?.service
        ?.name;
      if (defaultBackend) backends.add(defaultBackend);
      for (const b of backends)
        if (b !== 'gateway')
          fail(id, `exposes ${b ?? 'a non-service backend'}: only the gateway may have an Ingress`);
      const tls = (ing.spec?.tls ?? []) as { hosts?: string[]; secretName?: string }[];
      for (const r of rules)
        if (!tls.some((t) => t.secretName && (t.hosts ?? []).includes(r.host ?? '')))
          fail(id, `host ${r.host ?? '(any)'} has no TLS`);
    }
  }
  const budget = await connectionBudget(root, resources);
  if (Array.isArray(budget)) {
    for (const p of budget) problems.push({ ...p, source });
    return { problems };
  }
  if (budget.lines.length && budget.total >= budget.maxConnections)
    fail(
      `ConfigMap/${BUDGET}`,
      `Postgres connections at maximum replicas exceed the budget: ${describeBudget(budget)}`,
    );
  return { problems, budget: budget.lines.length ? budget : undefined };
}
