/**
 * The alert rules' offline checks beside promtool's (`make alerts`): the production overlay's
 * PrometheusRule carries exactly the rules of deploy/alerts, every alert links a runbook section
 * that exists, every metric an alert names is declared by the code (libs/, services/), and every
 * alert has a rule test that fires it and one that shows it quiet.
 * `npm run alerts:sync` (`--write`) regenerates the PrometheusRule from the rules file.
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
  for (const rule of alerts) {
    const url = rule.annotations?.runbook_url ?? '';
    const [file, anchor] = url.split('#');
    if (file !== RUNBOOKS || !runbooks?.has(anchor))
      problems.push({
        source: RULES,
        resource: rule.alert!,
        message: `runbook_url ${url || '(none)'} names no section of ${RUNBOOKS}`,
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
    writeFileSync(join(root, PROMETHEUS_RULE), renderPrometheusRule(readFileSync(join(root, RULES), 'utf8')));
    console.log(`wrote ${PROMETHEUS_RULE}`);
  }
}
