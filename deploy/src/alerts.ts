/**
 * The alert rules' offline checks beside promtool's (`make alerts`): the production overlay's
 * PrometheusRule carries exactly the rules of deploy/alerts, every alert links a runbook section
 * that exists at the absolute address RUNBOOK_BASE_URL (deploy/alerts/settings.env) gives, every metric an alert names is declared by the code (libs/, services/), and every
 * alert has a rule test that fires it and one that shows it quiet.
 * `npm run alerts:sync` (`--write`) builds every runbook_url from RUNBOOK_BASE_URL again (rules and
 * rule tests) and regenerates the PrometheusRule from the rules file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'yaml';
import { declaredMetrics } from './dashboards.ts';
import type { Problem } from './kubernetes.ts';

const RULES = 'deploy/alerts/coin-rewards.rules.yml';
const TESTS = 'deploy/alerts/coin-rewards.test.yml';
const RUNBOOKS = 'docs/operating/runbooks.md';
const SETTINGS = 'deploy/alerts/settings.env';

/** RUNBOOK_BASE_URL from deploy/alerts/settings.env: the one setting every runbook_url is built from. */
export function runbookBaseUrl(root: string): string {
  const text = existsSync(join(root, SETTINGS)) ? readFileSync(join(root, SETTINGS), 'utf8') : '';
  const url = text.match(/^RUNBOOK_BASE_URL=(\S+)$/m)?.[1];
  if (!url || !/^https?:\/\/[^/]+\//.test(url))
    throw new Error(`${SETTINGS}: RUNBOOK_BASE_URL must be an absolute http(s) address`);
  return url;
}

/** Every `runbook_url: …#anchor` of a YAML text, pointed at `base`. */
function rebase(text: string, base: string): string {
  return text.replace(/(runbook_url: )\S*#([\w-]+)/g, `$1${base}#$2`);
}
export const PROMETHEUS_RULE = 'k8s/overlays/production/prometheus-rule.yaml';

interface Rule {
  alert?: string;
  expr?: string;
  annotations?: Record<string, string>;
}
interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}
interface TestFile {
  tests: {
    name: string;
    input_series: unknown[];
    alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
  }[];
}

export function renderPrometheusRule(rulesText: string): string {
  const { groups } = parse(rulesText) as RuleFile;
  const header = `# Generated from ${RULES} by \`npm run alerts:sync\`; edit that file, not this one.\n`;
  const doc = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { name: 'coin-rewards', labels: { 'app.kubernetes.io/name': 'coin-rewards-alerts' } },
    spec: { groups },
  };
  return header + stringify(doc, { lineWidth: 0 });
}

/** A Markdown heading's GitHub anchor: lower case, spaces to dashes, punctuation dropped. */
function anchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    ),
  );
}

export function checkAlerts(root: string): Problem[] {
  const problems: Problem[] = [];
  const rulesText = readFileSync(join(root, RULES), 'utf8');
  const alerts = (parse(rulesText) as RuleFile).groups.flatMap((g) => g.rules).filter((r) => r.alert);
  const runbooks = existsSync(join(root, RUNBOOKS))
    ? anchors(readFileSync(join(root, RUNBOOKS), 'utf8'))
    : null;
  let base: string;
  try {
    base = runbookBaseUrl(root);
  } catch (err) {
    return [{ source: SETTINGS, resource: 'RUNBOOK_BASE_URL', message: (err as Error).message }];
  }
  for (const rule of alerts) {
    const url = rule.annotations?.runbook_url ?? '';
    const [address, anchor] = url.split('#');
    if (address !== base || !runbooks?.has(anchor))
      problems.push({
        source: RULES,
        resource: rule.alert!,
        message: `runbook_url ${url || '(none)'} is not RUNBOOK_BASE_URL#<a section of ${RUNBOOKS}>`,
      });
  }
  // An alert on a metric nobody exports never fires: every `coin_*` name must be declared by the code.
  const declared = declaredMetrics(root);
  for (const rule of alerts)
    for (const m of new Set(String(rule.expr ?? '').match(/\bcoin_[a-z0-9_]+/g) ?? [])) {
      const metric = m.replace(/_(bucket|count|sum)$/, '');
      if (!declared.has(metric))
        problems.push({ source: RULES, resource: rule.alert!, message: `no code declares the metric ${m}` });
    }
  const { tests } = parse(readFileSync(join(root, TESTS), 'utf8')) as TestFile;
  for (const rule of alerts) {
    const cases = tests.flatMap((t) =>
      (t.alert_rule_test ?? [])
        .filter((a) => a.alertname === rule.alert)
        .map((a) => ({ test: t, exp: a.exp_alerts ?? [] })),
    );
    if (!cases.some((c) => c.exp.length > 0))
      problems.push({ source: TESTS, resource: rule.alert!, message: 'no rule test shows it firing' });
    // Quiet: an evaluation expecting nothing, or a firing one fed series that raise no alert.
    if (!cases.some((c) => c.exp.length === 0 || c.test.input_series.length > c.exp.length))
      problems.push({
        source: TESTS,
        resource: rule.alert!,
        message: 'no rule test shows it quiet on a healthy series',
      });
  }
  const ruleFile = join(root, PROMETHEUS_RULE);
  const deployed = existsSync(ruleFile) ? (parse(readFileSync(ruleFile, 'utf8')) as { spec?: RuleFile }) : {};
  if (!isDeepStrictEqual(deployed.spec?.groups, (parse(rulesText) as RuleFile).groups))
    problems.push({
      source: PROMETHEUS_RULE,
      resource: 'PrometheusRule/coin-rewards',
      message: `differs from ${RULES}: run npm run alerts:sync`,
    });
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(import.meta.url), '../../..');
  if (process.argv.includes('--write')) {
    const base = runbookBaseUrl(root);
    for (const file of [RULES, TESTS])
      writeFileSync(join(root, file), rebase(readFileSync(join(root, file), 'utf8'), base));
    writeFileSync(join(root, PROMETHEUS_RULE), renderPrometheusRule(readFileSync(join(root, RULES), 'utf8')));
    console.log(`wrote ${RULES} and ${TESTS} (runbooks at ${base}), ${PROMETHEUS_RULE}`);
  }
}
