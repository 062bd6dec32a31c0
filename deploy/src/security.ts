/**
 * What a rendered kustomization must hold so that no process can do more than its job and nothing
 * crosses the network in clear (docs/operating/security.md): every service reaches its own database
 * as its own role (`<SERVICE>_DATABASE_URL`, user and database `coin_<service>`, the password from
 * its own Secret `coin-database-<service>` by key) and holds no other database credential; the migrate
 * Job holds the migration role's URLs; and in an overlay (production) every database URL has
 * `sslmode=verify-full`, NATS is `tls://` with a CA and its server requires TLS of clients and of its
 * cluster routes (certificates checked both ways: a route authenticates by its certificate), and Redis
 * is `rediss://` with AUTH.
 */
import { parseAllDocuments } from 'yaml';
import type { Problem } from './kubernetes.ts';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Container {
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
}
interface Resource {
  kind: string;
  metadata: { name: string };
  spec?: {
    template?: { spec?: { containers?: Container[] } };
    jobTemplate?: { spec?: { template?: { spec?: { containers?: Container[] } } } };
  };
  data?: Record<string, string>;
}

const SERVICES = ['identity', 'leaderboard', 'onboarding', 'rules', 'wallet', 'webhooks'];
const OTHER_CREDENTIALS = /(_MIGRATION_DATABASE_URL|^DATABASE_ADMIN_URL|^DATABASE_URL_BASE)$/;

/** The container's environment as the kubelet builds it: ConfigMaps, then `env` with `$(VAR)` expanded. */
function environment(c: Container, configMaps: Map<string, Record<string, string>>) {
  const values = new Map<string, string>();
  const secrets = new Map<string, { name: string; key: string }>();
  for (const from of c.envFrom ?? [])
    for (const [k, v] of Object.entries((from.configMapRef && configMaps.get(from.configMapRef.name)) ?? {}))
      values.set(k, v);
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref) {
      secrets.set(e.name, ref);
      values.set(e.name, `<secret ${ref.name}/${ref.key}>`);
    } else if (e.value !== undefined)
      values.set(
        e.name,
        e.value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, v: string) => values.get(v) ?? m),
      );
  }
  return { values, secrets, names: (c.env ?? []).map((e) => e.name) };
}

/** The Secret a URL's password comes from: the one `$(VAR)` in its password, resolved. */
function passwordSecret(raw: EnvVar | undefined, secrets: Map<string, { name: string; key: string }>) {
  const variable = /:\$\(([A-Za-z_][A-Za-z0-9_]*)\)@/.exec(raw?.value ?? '')?.[1];
  return variable ? secrets.get(variable) : undefined;
}

function parsedUrl(text: string | undefined): URL | undefined {
  return text && URL.canParse(text.replace(/<secret [^>]+>/, 'secret'))
    ? new URL(text.replace(/<secret [^>]+>/, 'secret'))
    : undefined;
}

export function checkSecurity(yamlText: string, opts: { overlay: boolean }): Omit<Problem, 'source'>[] {
  const problems: Omit<Problem, 'source'>[] = [];
  const fail = (resource: string, message: string) => problems.push({ resource, message });
  const resources = parseAllDocuments(yamlText)
    .map((d) => d.toJS() as Resource | null)
    .filter((d): d is Resource => !!d?.kind);
  const configMaps = new Map(
    resources.filter((r) => r.kind === 'ConfigMap').map((r) => [r.metadata.name, r.data ?? {}]),
  );
  const databaseUrl = (
    id: string,
    env: ReturnType<typeof environment>,
    name: string,
    role: string,
    db: string,
  ) => {
    const url = parsedUrl(env.values.get(name));
    if (url?.username !== role || url.pathname !== `/${db}`)
      return fail(id, `${name} must connect as ${role} to ${db}, not ${env.values.get(name) ?? 'nothing'}`);
    if (
      opts.overlay &&
      (url.searchParams.get('sslmode') !== 'verify-full' || !url.searchParams.get('sslrootcert'))
    )
      fail(id, `${name} has no sslmode=verify-full with an sslrootcert: production requires TLS to Postgres`);
  };

  for (const w of resources.filter((r) => ['Deployment', 'Job', 'CronJob'].includes(r.kind))) {
    const id = `${w.kind}/${w.metadata.name}`;
    const pod = w.spec?.template?.spec ?? w.spec?.jobTemplate?.spec?.template?.spec;
    for (const c of pod?.containers ?? []) {
      const env = environment(c, configMaps);
      if (c.envFrom?.some((f) => f.secretRef?.name === 'coin-database'))
        fail(id, 'loads the shared Secret coin-database: each process takes its own credential by key');
      const service = c.args?.map((a) => /^services\/([\w-]+)\/src\/main\.ts$/.exec(a)?.[1]).find(Boolean);
      // The migrate Job and the backup schedule hold the databases' owner role, the migration role.
      const migrates = c.args?.some(
        (a) => a === 'scripts/migrate.ts' || a === 'backup/src/backup-command.ts',
      );
      if (service || (c.args && !migrates))
        for (const name of env.values.keys())
          if (
            OTHER_CREDENTIALS.test(name) ||
            (name.endsWith('_DATABASE_URL') && name !== `${service?.toUpperCase()}_DATABASE_URL`)
          )
            fail(id, `${name}: a service holds only its own database role's credential`);
      if (service && service !== 'gateway') {
        const name = `${service.toUpperCase()}_DATABASE_URL`;
        databaseUrl(id, env, name, `coin_${service}`, `coin_${service}`);
        const secret = passwordSecret(
          c.env?.find((e) => e.name === name),
          env.secrets,
        );
        if (secret?.name !== `coin-database-${service}`)
          fail(id, `${name} takes no password from its own Secret coin-database-${service} (by key)`);
      }
      if (migrates)
        for (const s of SERVICES)
          databaseUrl(id, env, `${s.toUpperCase()}_MIGRATION_DATABASE_URL`, 'coin_migrate', `coin_${s}`);
      if (opts.overlay && (service || c.args?.includes('scripts/migrate.ts')))
        transport(id, env.values, service, fail);
    }
  }
  if (opts.overlay) natsServer(configMaps.get('nats')?.['nats.conf'], fail);
  return problems;
}

/** Client TLS to NATS for every process; TLS and AUTH to Redis for the two that use it. */
function transport(
  id: string,
  values: Map<string, string>,
  service: string | undefined,
  fail: (resource: string, message: string) => void,
) {
  const nats = values.get('NATS_URL') ?? '';
  if (values.has('INSECURE_TEST_TRANSPORT'))
    fail(
      id,
      'INSECURE_TEST_TRANSPORT is set: it lifts the TLS checks a production process makes (tests only)',
    );
  if (!nats.split(',').every((u) => u.startsWith('tls://')) || !values.get('NATS_TLS_CA_FILE'))
    fail(id, `NATS_URL ${nats} is not tls:// with NATS_TLS_CA_FILE: production requires TLS to NATS`);
  if (service === 'gateway' || service === 'leaderboard') {
    if (!(values.get('REDIS_URL') ?? '').startsWith('rediss://'))
      fail(id, `REDIS_URL ${values.get('REDIS_URL')} is not rediss://: production requires TLS to Redis`);
    if (!values.get('REDIS_PASSWORD')?.startsWith('<secret '))
      fail(id, 'REDIS_PASSWORD does not come from a Secret: production requires Redis AUTH');
  }
}

/** The NATS server's configuration: TLS for clients, and TLS checked both ways on the cluster routes. */
function natsServer(conf: string | undefined, fail: (resource: string, message: string) => void) {
  if (conf === undefined) return fail('ConfigMap/nats', 'no NATS server configuration to check');
  const cluster = /^cluster\s*\{([\s\S]*?)^\}/m.exec(conf)?.[1] ?? '';
  const outside = conf.replace(cluster, '');
  if (!/^\s*tls\s*\{[^}]*cert_file[^}]*\}/m.test(outside))
    fail('ConfigMap/nats', 'the NATS server takes clients without TLS (no tls { cert_file … } block)');
  if (cluster) {
    if (!/tls\s*\{[^}]*verify:\s*true[^}]*\}/.test(cluster))
      fail(
        'ConfigMap/nats',
        'the cluster routes are not TLS with certificates checked both ways (tls { verify: true })',
      );
  }
}
