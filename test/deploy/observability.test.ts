import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parser } from '@prometheus-io/lezer-promql';
import { parse } from 'yaml';
import { Metrics } from '@kupa/api/testing';
import { DEPLOY_DIR } from './paths.ts';

/**
 * deploy/prometheus/kupa-alerts.yaml and deploy/grafana/kupa-dashboard.json (docs/adr/0063): the rule file's shape as
 * Prometheus reads it, every expression parsed by Prometheus' own PromQL grammar (@prometheus-io/lezer-promql, the
 * parser of Prometheus' web UI), every metric they name one Kupa exports (its registry, as API replicas and workers
 * serve it), and the dashboard's shape as Grafana imports it.
 */

/** Series Prometheus makes itself, beside what a target exports. */
const PROMETHEUS_SERIES = new Set(['up']);

async function exportedNames(): Promise<Set<string>> {
  const names = new Set(PROMETHEUS_SERIES);
  const metrics = new Metrics();
  // Registered only by a process with a read replica (docs/adr/0113-read-replicas.md).
  metrics.replicaGauges();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
  }
  return names;
}

/** The metric names an expression selects, or throws naming where the grammar refused it. */
function metricNames(expression: string): string[] {
  const tree = parser.parse(expression);
  const names: string[] = [];
  const errors: number[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from);
      // A vector selector's Identifier is its metric name; label names and functions are other node types.
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector')
        names.push(expression.slice(node.from, node.to));
    },
  });
  if (errors.length > 0) throw new Error(`PromQL does not parse at ${errors.join(', ')}: ${expression}`);
  return names;
}

interface Rule {
  alert?: string;
  record?: string;
  expr: unknown;
  for?: unknown;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  [key: string]: unknown;
}
interface RuleFile {
  groups: { name: string; rules: Rule[]; [key: string]: unknown }[];
  [key: string]: unknown;
}

const rulesText = readFileSync(join(DEPLOY_DIR, 'prometheus', 'kupa-alerts.yaml'), 'utf8');
const ruleFile = parse(rulesText) as RuleFile;
const rules = ruleFile.groups.flatMap((group) => group.rules);

interface Target {
  refId: string;
  expr: string;
  datasource?: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource: { type: string; uid: string };
  targets: Target[];
}
interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  templating: { list: { name: string; type: string; query: string }[] };
  panels: Panel[];
}
const dashboard = JSON.parse(readFileSync(join(DEPLOY_DIR, 'grafana', 'kupa-dashboard.json'), 'utf8')) as Dashboard;

/** Prometheus' duration syntax (`30s`, `5m`, `1h30m`). */
const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;

describe('deploy/prometheus/kupa-alerts.yaml', () => {
  it('is a rule file: groups with unique names, each with rules, nothing Prometheus would refuse', () => {
    assert.deepEqual(Object.keys(ruleFile), ['groups']);
    assert.ok(ruleFile.groups.length > 0);
    assert.equal(new Set(ruleFile.groups.map((group) => group.name)).size, ruleFile.groups.length);
    for (const group of ruleFile.groups) {
      assert.deepEqual(Object.keys(group).sort(), ['name', 'rules'], group.name);
      assert.ok(group.rules.length > 0, group.name);
    }
  });

  it('gives every alert an expression, a duration, a severity, a summary and a description', () => {
    const alerts = rules.map((rule) => rule.alert);
    assert.equal(new Set(alerts).size, alerts.length, 'alert names are unique');
    for (const rule of rules) {
      const name = String(rule.alert);
      assert.match(name, /^Kupa[A-Z][A-Za-z]+$/);
      assert.deepEqual(Object.keys(rule).sort(), ['alert', 'annotations', 'expr', 'for', 'labels'], name);
      assert.equal(typeof rule.expr, 'string', name);
      assert.match(String(rule.for), DURATION, name);
      assert.deepEqual(Object.keys(rule.labels ?? {}), ['severity'], name);
      assert.ok(['warning', 'critical'].includes(String(rule.labels?.severity)), name);
      assert.deepEqual(Object.keys(rule.annotations ?? {}).sort(), ['description', 'summary'], name);
      for (const text of Object.values(rule.annotations ?? {})) assert.ok(String(text).trim().length > 10, name);
    }
  });

  it('alerts on what issue 28 asks: workers, lag, the outbox, the provisioning queue, readiness, the pool', () => {
    const byAlert = new Map(rules.map((rule) => [rule.alert, String(rule.expr)]));
    const expected: Record<string, RegExp> = {
      KupaWorkerDown: /up\{job="kupa-worker"\}/,
      KupaNoWorkerUp: /absent\(up\{job="kupa-worker"\}/,
      KupaProcessorBehind: /kupa_processor_behind/,
      KupaProcessorLagSeconds: /kupa_processor_lag_seconds/,
      KupaProcessorLagEvents: /kupa_processor_lag_events/,
      KupaMailOutboxBacklog: /kupa_mail_outbox_unsent/,
      KupaMailOutboxOldestUnsent: /kupa_mail_outbox_oldest_unsent_seconds/,
      KupaProvisioningQueueBacklog: /kupa_provisioning_jobs_pending/,
      KupaProvisioningOldestPending: /kupa_provisioning_oldest_pending_seconds/,
      KupaApiNotReady: /kupa_database_ready\{job="kupa-api"\}/,
      KupaDbPoolWaiting: /kupa_db_pool_waiting_requests/,
    };
    for (const [alert, pattern] of Object.entries(expected)) assert.match(byAlert.get(alert) ?? '', pattern, alert);
  });

  it('parses every expression with the PromQL grammar, and names only metrics Kupa exports', async () => {
    const exported = await exportedNames();
    for (const rule of rules) {
      const names = metricNames(String(rule.expr));
      assert.ok(names.length > 0, `${rule.alert} selects no metric`);
      for (const name of names) assert.ok(exported.has(name), `${rule.alert}: ${name} is not exported by Kupa`);
    }
  });

  it('the checks themselves refuse a broken expression and an unknown metric', async () => {
    assert.throws(() => metricNames('max by (processor (kupa_processor_behind) == 1'), /does not parse/);
    assert.throws(() => metricNames('rate(kupa_mails_total[5x])'), /does not parse/);
    assert.deepEqual(metricNames('sum(rate(kupa_mails_total{outcome="sent"}[5m])) > up'), ['kupa_mails_total', 'up']);
    assert.ok(!(await exportedNames()).has('kupa_event_store_horizon'));
  });
});

describe('deploy/grafana/kupa-dashboard.json', () => {
  it('is an importable dashboard: uid, title, schema version and a Prometheus data source variable', () => {
    assert.match(dashboard.uid, /^[a-z0-9-]{1,40}$/);
    assert.equal(dashboard.title, 'Kupa');
    assert.ok(Number.isInteger(dashboard.schemaVersion) && dashboard.schemaVersion >= 36);
    assert.deepEqual(
      dashboard.templating.list.filter((variable) => variable.type === 'datasource'),
      [dashboard.templating.list.find((variable) => variable.name === 'datasource')],
    );
    assert.equal(dashboard.templating.list.find((variable) => variable.name === 'datasource')?.query, 'prometheus');
  });

  it('gives every panel a unique id, a place on the grid and targets on the variable data source', () => {
    assert.ok(dashboard.panels.length > 0);
    assert.equal(new Set(dashboard.panels.map((panel) => panel.id)).size, dashboard.panels.length);
    for (const panel of dashboard.panels) {
      assert.ok(['timeseries', 'stat'].includes(panel.type), panel.title);
      assert.ok(panel.title.length > 0);
      const { h, w, x, y } = panel.gridPos;
      assert.ok(h > 0 && w > 0 && x >= 0 && x + w <= 24 && y >= 0, panel.title);
      assert.deepEqual(panel.datasource, { type: 'prometheus', uid: '${datasource}' }, panel.title);
      assert.ok(panel.targets.length > 0, panel.title);
      assert.equal(new Set(panel.targets.map((target) => target.refId)).size, panel.targets.length, panel.title);
      for (const target of panel.targets)
        assert.deepEqual(target.datasource ?? panel.datasource, panel.datasource, panel.title);
    }
  });

  it('parses every query with the PromQL grammar, names only exported metrics, and shows the new gauges', async () => {
    const exported = await exportedNames();
    const shown = new Set<string>();
    for (const panel of dashboard.panels)
      for (const target of panel.targets) {
        // Grafana's own variables stand for a duration when the query runs.
        const names = metricNames(target.expr.replaceAll('$__rate_interval', '5m'));
        assert.ok(names.length > 0, `${panel.title}: ${target.expr}`);
        for (const name of names) {
          assert.ok(exported.has(name), `${panel.title}: ${name} is not exported by Kupa`);
          shown.add(name);
        }
      }
    for (const name of [
      'kupa_processor_lag_seconds',
      'kupa_processor_lag_events',
      'kupa_processor_behind',
      'kupa_mail_outbox_unsent',
      'kupa_mail_outbox_oldest_unsent_seconds',
      'kupa_provisioning_jobs_pending',
      'kupa_provisioning_oldest_pending_seconds',
      'kupa_database_ready',
      'kupa_db_pool_waiting_requests',
      'up',
    ])
      assert.ok(shown.has(name), `no panel shows ${name}`);
  });
});
