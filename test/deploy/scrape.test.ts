import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { kustomize, type KubernetesObject } from './kustomize.ts';
import { DEPLOY_DIR } from './paths.ts';

/**
 * deploy/prometheus/kupa-scrape.yaml: its relabelling applied, as Prometheus' Kubernetes pod discovery would, to the
 * production overlay's pods. Each job must find its own pods, and only them, at the route and port the process
 * serves its metrics on, with the token read from a file; the job names must be those the alert rules query.
 */
interface RelabelConfig {
  source_labels?: string[];
  separator?: string;
  regex?: string;
  replacement?: string;
  target_label?: string;
  action?: 'replace' | 'keep' | 'drop';
}
interface ScrapeConfig {
  job_name: string;
  kubernetes_sd_configs: Array<{ role: string; namespaces?: { names: string[] } }>;
  authorization?: { type?: string; credentials?: string; credentials_file?: string };
  relabel_configs: RelabelConfig[];
}

const scrapeConfigs = (
  parse(readFileSync(join(DEPLOY_DIR, 'prometheus', 'kupa-scrape.yaml'), 'utf8')) as { scrape_configs: ScrapeConfig[] }
).scrape_configs;
const production = kustomize(join(DEPLOY_DIR, 'k8s', 'overlays', 'production'));
const POD_IP = '10.42.0.7';

interface Pod {
  owner: string;
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ports: number[];
}
type Template = {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Array<{ ports?: Array<{ containerPort: number }> }> };
};

/** Every pod the overlay makes (a Deployment's, the Job's, the CronJob's), as discovery would see one of each. */
function pods(objects: KubernetesObject[]): Pod[] {
  return objects.flatMap((object) => {
    const spec = object.spec as Record<string, unknown> | undefined;
    const template =
      object.kind === 'Deployment' || object.kind === 'Job'
        ? (spec!.template as Template)
        : object.kind === 'CronJob'
          ? ((spec!.jobTemplate as { spec: { template: Template } }).spec.template as Template)
          : undefined;
    if (!template) return [];
    return [
      {
        owner: object.metadata.name,
        namespace: object.metadata.namespace!,
        labels: template.metadata.labels ?? {},
        annotations: template.metadata.annotations ?? {},
        ports: template.spec.containers.flatMap((container) => (container.ports ?? []).map((p) => p.containerPort)),
      },
    ];
  });
}

/** Prometheus' label name for a Kubernetes label or annotation name. */
function sanitize(name: string): string {
  return name.replaceAll(/[^a-zA-Z0-9_]/g, '_');
}

/** The targets pod discovery hands a job for one pod: one per container port (one without a port if it has none). */
function discovered(pod: Pod, job: string): Array<Record<string, string>> {
  const common: Record<string, string> = {
    job,
    __metrics_path__: '/metrics',
    __scheme__: 'http',
    __meta_kubernetes_namespace: pod.namespace,
    __meta_kubernetes_pod_name: `${pod.owner}-7d9f8-abcde`,
    __meta_kubernetes_pod_ip: POD_IP,
  };
  for (const [name, value] of Object.entries(pod.labels))
    common[`__meta_kubernetes_pod_label_${sanitize(name)}`] = value;
  for (const [name, value] of Object.entries(pod.annotations))
    common[`__meta_kubernetes_pod_annotation_${sanitize(name)}`] = value;
  const ports = pod.ports.length > 0 ? pod.ports : [undefined];
  return ports.map((port) => ({ ...common, __address__: port === undefined ? POD_IP : `${POD_IP}:${port}` }));
}

/** Prometheus' relabelling: replace (the default), keep and drop, the regex anchored at both ends. */
function relabel(labels: Record<string, string>, configs: RelabelConfig[]): Record<string, string> | null {
  const result = { ...labels };
  for (const config of configs) {
    const value = (config.source_labels ?? []).map((name) => result[name] ?? '').join(config.separator ?? ';');
    const match = new RegExp(`^(?:${config.regex ?? '(.*)'})$`).exec(value);
    const action = config.action ?? 'replace';
    if (action === 'keep' && !match) return null;
    if (action === 'drop' && match) return null;
    if (action === 'replace' && match) {
      const replaced = (config.replacement ?? '$1').replaceAll(
        /\$(\d+)/g,
        (_, group: string) => match[Number(group)] ?? '',
      );
      if (replaced === '') delete result[config.target_label!];
      else result[config.target_label!] = replaced;
    }
  }
  return result;
}

/** The URLs a job scrapes, each with the pod it belongs to. */
function scrapes(config: ScrapeConfig): Array<{ owner: string; url: string }> {
  const namespaces = config.kubernetes_sd_configs.flatMap((sd) => sd.namespaces?.names ?? []);
  return pods(production)
    .filter((pod) => namespaces.includes(pod.namespace))
    .flatMap((pod) =>
      discovered(pod, config.job_name).flatMap((target) => {
        const labels = relabel(target, config.relabel_configs);
        return labels
          ? [{ owner: pod.owner, url: `${labels.__scheme__}://${labels.__address__}${labels.__metrics_path__}` }]
          : [];
      }),
    );
}

describe('deploy/prometheus/kupa-scrape.yaml', () => {
  it('names the jobs the alert rules query', () => {
    const rules = readFileSync(join(DEPLOY_DIR, 'prometheus', 'kupa-alerts.yaml'), 'utf8');
    const queried = new Set([...rules.matchAll(/job="([^"]+)"/g)].map((match) => match[1]));
    assert.deepEqual(scrapeConfigs.map((config) => config.job_name).sort(), [...queried].sort());
  });

  it('finds each API replica at /api/metrics on its port, each worker at /metrics on WORKER_PORT, nothing else', () => {
    const byJob = Object.fromEntries(scrapeConfigs.map((config) => [config.job_name, scrapes(config)]));
    assert.deepEqual(byJob, {
      'kupa-api': [{ owner: 'kupa-api', url: `http://${POD_IP}:3000/api/metrics` }],
      'kupa-worker': [{ owner: 'kupa-worker', url: `http://${POD_IP}:9464/metrics` }],
    });
  });

  it('scrapes the namespace the production overlay deploys to, and sends the token from a file', () => {
    const namespace = production.find((object) => object.kind === 'Namespace')!.metadata.name;
    for (const config of scrapeConfigs) {
      assert.deepEqual(config.kubernetes_sd_configs, [{ role: 'pod', namespaces: { names: [namespace] } }]);
      assert.equal(config.authorization?.type, 'Bearer');
      assert.equal(config.authorization?.credentials, undefined, 'no token in the repository');
      assert.match(String(config.authorization?.credentials_file), /\/METRICS_TOKEN$/);
    }
  });

  it('uses only fields Prometheus knows there (it refuses a configuration with any other)', () => {
    const known = {
      scrape: ['job_name', 'kubernetes_sd_configs', 'authorization', 'relabel_configs'],
      sd: ['role', 'namespaces'],
      authorization: ['type', 'credentials', 'credentials_file'],
      relabel: ['source_labels', 'separator', 'regex', 'modulus', 'replacement', 'target_label', 'action'],
    };
    const unknown = (object: object, fields: string[]): string[] =>
      Object.keys(object).filter((field) => !fields.includes(field));
    for (const config of scrapeConfigs) {
      assert.deepEqual(unknown(config, known.scrape), [], config.job_name);
      for (const sd of config.kubernetes_sd_configs) assert.deepEqual(unknown(sd, known.sd), [], config.job_name);
      assert.deepEqual(unknown(config.authorization ?? {}, known.authorization), [], config.job_name);
      for (const rule of config.relabel_configs) assert.deepEqual(unknown(rule, known.relabel), [], config.job_name);
    }
  });

  it('the relabelling check itself drops a pod whose annotations stop asking to be scraped', () => {
    const [api] = scrapeConfigs;
    const pod = pods(production).find((candidate) => candidate.owner === 'kupa-api')!;
    const target = discovered(
      { ...pod, annotations: { ...pod.annotations, 'prometheus.io/scrape': 'false' } },
      api.job_name,
    );
    assert.deepEqual(
      target.map((labels) => relabel(labels, api.relabel_configs)),
      [null],
    );
  });
});
