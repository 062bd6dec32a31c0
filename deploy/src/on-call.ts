/**
 * What an on-call engineer opens during an incident, checked offline: docker compose provisions
 * Grafana with the project's dashboards on its Prometheus, and Prometheus sends its alerts to an
 * Alertmanager whose routes name receivers it declares; the production overlay ships the dashboards
 * as a labelled ConfigMap (dashboards.ts) and backups run on a schedule with the project's command.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { checkDashboardConfigMap } from './dashboards.ts';
import type { Problem } from './kubernetes.ts';

interface ComposeService {
  image?: string;
  volumes?: string[];
  depends_on?: string[] | Record<string, unknown>;
}

interface Route {
  receiver?: string;
  routes?: Route[];
}

function yamlOf<T>(root: string, file: string, problems: Problem[]): T | undefined {
  try {
    return parse(readFileSync(join(root, file), 'utf8'), { merge: true }) as T;
  } catch (err) {
    problems.push({ source: file, resource: file, message: (err as Error).message });
    return undefined;
  }
}

/** The host path mounted at `target` in a compose service, if any. */
function mounted(service: ComposeService | undefined, target: string): string | undefined {
  for (const v of service?.volumes ?? []) {
    const [host, inside] = v.split(':');
    if (inside === target) return host.replace(/^\.\//, '');
  }
  return undefined;
}

function receiversOf(route: Route | undefined): string[] {
  if (!route) return [];
  return [...(route.receiver ? [route.receiver] : []), ...(route.routes ?? []).flatMap(receiversOf)];
}

function checkCompose(root: string, problems: Problem[]): void {
  const source = 'docker-compose.yml';
  const compose = yamlOf<{ services?: Record<string, ComposeService> }>(root, source, problems);
  const services = compose?.services ?? {};
  const fail = (resource: string, message: string) => problems.push({ source, resource, message });
  const grafana = services.grafana;
  if (!grafana) fail('grafana', 'no Grafana service');
  else {
    const provisioning = mounted(grafana, '/etc/grafana/provisioning');
    if (!provisioning || !existsSync(join(root, provisioning, 'dashboards')))
      fail('grafana', 'does not mount a provisioning directory with dashboards at /etc/grafana/provisioning');
    else {
      const providers = yamlOf<{ providers?: { options?: { path?: string } }[] }>(
        root,
        join(provisioning, 'dashboards', 'coin-rewards.yml'),
        problems,
      );
      for (const p of providers?.providers ?? []) {
        const path = p.options?.path ?? '';
        const host = mounted(grafana, path);
        if (!host || !existsSync(join(root, host, 'coin-rewards.json')))
          fail(
            'grafana',
            `its dashboard provider reads ${path}, where the project's dashboard is not mounted`,
          );
      }
      const sources = yamlOf<{ datasources?: { url?: string }[] }>(
        root,
        join(provisioning, 'datasources', 'prometheus.yml'),
        problems,
      );
      if (!sources?.datasources?.some((d) => d.url === 'http://prometheus:9090'))
        fail('grafana', "no provisioned data source on the stack's Prometheus (http://prometheus:9090)");
    }
  }
  const alertmanager = services.alertmanager;
  const config = mounted(alertmanager, '/etc/alertmanager/alertmanager.yml');
  if (!alertmanager || !config)
    fail('alertmanager', 'no Alertmanager service with its configuration mounted');
  else {
    const am = yamlOf<{ route?: Route; receivers?: { name: string }[] }>(root, config, problems);
    const declared = new Set((am?.receivers ?? []).map((r) => r.name));
    const used = receiversOf(am?.route);
    if (used.length === 0) fail(config, 'no route');
    for (const r of used)
      if (!declared.has(r)) fail(config, `a route sends to ${r}, which is not a receiver`);
  }
  const prometheusConfig = mounted(services.prometheus, '/etc/prometheus/prometheus.yml');
  const prometheus = prometheusConfig
    ? yamlOf<{ alerting?: { alertmanagers?: { static_configs?: { targets?: string[] }[] }[] } }>(
        root,
        prometheusConfig,
        problems,
      )
    : undefined;
  const targets = (prometheus?.alerting?.alertmanagers ?? []).flatMap((a) =>
    (a.static_configs ?? []).flatMap((s) => s.targets ?? []),
  );
  if (!targets.includes('alertmanager:9093'))
    fail('prometheus', 'its configuration sends alerts to no Alertmanager of the stack (alertmanager:9093)');
}

/** The base's backup CronJob runs the project's backup command into a volume, on a schedule. */
function checkBackupSchedule(root: string, problems: Problem[]): void {
  const source = 'k8s/base/backup-cronjob.yaml';
  const text = existsSync(join(root, source)) ? readFileSync(join(root, source), 'utf8') : '';
  const cron = parseAllDocuments(text)
    .map((d) => d.toJS())
    .find((d) => d?.kind === 'CronJob');
  const container = cron?.spec?.jobTemplate?.spec?.template?.spec?.containers?.[0];
  const args: string[] = container?.args ?? [];
  const into = args[args.indexOf('--into') + 1];
  const mount = (container?.volumeMounts ?? []).find((m: { mountPath: string }) => m.mountPath === into);
  if (!cron?.spec?.schedule || args[0] !== 'backup/src/backup-command.ts' || !into || !mount)
    problems.push({
      source,
      resource: 'CronJob/backup',
      message: 'no CronJob running backup/src/backup-command.ts --into a mounted volume on a schedule',
    });
}

export function checkOnCall(root: string): Problem[] {
  const problems: Problem[] = [];
  checkCompose(root, problems);
  problems.push(...checkDashboardConfigMap(root));
  checkBackupSchedule(root, problems);
  return problems;
}
