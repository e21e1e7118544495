import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import type { IContainer } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { envExampleNames } from './env-example.ts';
import { DEPLOY_DIR, REPOSITORY_ROOT } from './paths.ts';

/**
 * deploy/k8s/: every manifest validated against the Kubernetes schemas (kubernetes-models), and the references
 * between them and to the server checked: probe paths, the Secret's keys, selectors, names.
 */
const MODELS = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 Job': Job,
  'networking.k8s.io/v1 Ingress': Ingress,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
} as const;

/** The variables that are secrets: they live in the Secret, never in the ConfigMap. */
const SECRET_VARIABLES = [
  'ADMIN_PASSWORD',
  'CASHIER_API_KEY',
  'CASHIER_IPN_SECRET',
  'DATABASE_URL',
  'JWT_SECRET',
  'METRICS_TOKEN',
  'PROVISIONING_TOKEN',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'TWO_FACTOR_KEY',
];

interface Manifest {
  file: string;
  key: keyof typeof MODELS;
  document: { metadata: { name: string }; [field: string]: unknown };
}

const k8sDir = join(DEPLOY_DIR, 'k8s');
const manifests: Manifest[] = readdirSync(k8sDir)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8')).map((parsed) => {
      assert.deepEqual(parsed.errors, [], file);
      const document = parsed.toJS() as Manifest['document'] & { apiVersion: string; kind: string };
      return { file, key: `${document.apiVersion} ${document.kind}` as Manifest['key'], document };
    }),
  );

function one<T>(key: keyof typeof MODELS, name: string): T {
  const found = manifests.find((manifest) => manifest.key === key && manifest.document.metadata.name === name);
  assert.ok(found, `no ${key} ${name}`);
  return found.document as T;
}

const api = one<Deployment>('apps/v1 Deployment', 'kupa-api');
const worker = one<Deployment>('apps/v1 Deployment', 'kupa-worker');
const apiContainer = api.spec!.template.spec!.containers[0];
const workerContainer = worker.spec!.template.spec!.containers[0];

function role(container: IContainer): string | undefined {
  return container.env?.find((variable) => variable.name === 'KUPA_ROLE')?.value;
}

describe('deploy/k8s', () => {
  it('holds the API and worker Deployments, Service, Ingress, ConfigMap, Secret, PDB, HPA and migration Job', () => {
    assert.deepEqual(manifests.map((manifest) => manifest.key).sort(), [
      'apps/v1 Deployment',
      'apps/v1 Deployment',
      'autoscaling/v2 HorizontalPodAutoscaler',
      'batch/v1 Job',
      'networking.k8s.io/v1 Ingress',
      'policy/v1 PodDisruptionBudget',
      'v1 ConfigMap',
      'v1 Secret',
      'v1 Service',
    ]);
  });

  it('validates every manifest against the Kubernetes schema', () => {
    for (const { file, key, document } of manifests) {
      const Model = MODELS[key];
      assert.ok(Model, `${file}: ${key} is not a kind these checks know`);
      assert.doesNotThrow(() => new Model(document as never).validate(), `${file} (${key})`);
    }
  });

  it('the schema check itself refuses a broken manifest', () => {
    const broken = structuredClone(api);
    broken.spec!.template.spec!.containers[0].ports = [{ containerPort: 'http' as unknown as number }];
    assert.throws(() => new Deployment(broken).validate(), /containerPort must be integer/);
  });

  it('probes the API on the health routes the server serves', () => {
    const controller = readFileSync(
      join(REPOSITORY_ROOT, 'services/api/src/platform/observability/health.controller.ts'),
      'utf8',
    );
    assert.match(controller, /@Controller\('health'\)/);
    assert.match(controller, /@Get\('live'\)/);
    assert.match(controller, /@Get\('ready'\)/);
    assert.match(readFileSync(join(REPOSITORY_ROOT, 'services/api/src/create-app.ts'), 'utf8'), /API_PREFIX = 'api'/);
    assert.equal(apiContainer.readinessProbe?.httpGet?.path, '/api/health/ready');
    assert.equal(apiContainer.livenessProbe?.httpGet?.path, '/api/health/live');
    assert.equal(apiContainer.startupProbe?.httpGet?.path, '/api/health/live');
    const portNames = apiContainer.ports?.map((port) => port.name);
    for (const probe of [apiContainer.readinessProbe, apiContainer.livenessProbe, apiContainer.startupProbe])
      assert.ok(portNames?.includes(String(probe?.httpGet?.port)));
    const port = apiContainer.env?.find((variable) => variable.name === 'PORT')?.value;
    assert.equal(Number(port), apiContainer.ports?.[0].containerPort);
  });

  it('probes the workers on their own port, where the worker serves its health and metrics', () => {
    const server = readFileSync(
      join(REPOSITORY_ROOT, 'services/api/src/platform/observability/worker-observability.ts'),
      'utf8',
    );
    for (const path of ['/health/live', '/health/ready', '/metrics']) assert.match(server, new RegExp(`'${path}'`));
    assert.equal(workerContainer.readinessProbe?.httpGet?.path, '/health/ready');
    assert.equal(workerContainer.livenessProbe?.httpGet?.path, '/health/live');
    assert.equal(workerContainer.startupProbe?.httpGet?.path, '/health/live');
    const port = workerContainer.env?.find((variable) => variable.name === 'WORKER_PORT')?.value;
    assert.deepEqual(workerContainer.ports, [{ name: 'metrics', containerPort: Number(port), protocol: 'TCP' }]);
    for (const probe of [workerContainer.readinessProbe, workerContainer.livenessProbe, workerContainer.startupProbe])
      assert.equal(probe?.httpGet?.port, 'metrics');
    assert.deepEqual(worker.spec!.template.metadata!.annotations, {
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': port,
      'prometheus.io/path': '/metrics',
    });
    assert.deepEqual(api.spec!.template.metadata!.annotations, {
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(apiContainer.ports?.[0].containerPort),
      'prometheus.io/path': '/api/metrics',
    });
  });

  it('runs the roles: API replicas serve, workers work, both from the same image as non-root', () => {
    assert.equal(role(apiContainer), 'api');
    assert.equal(role(workerContainer), 'worker');
    assert.deepEqual(
      workerContainer.ports?.map((port) => port.name),
      ['metrics'],
    );
    assert.equal(apiContainer.image, workerContainer.image);
    const job = one<Job>('batch/v1 Job', 'kupa-migrate');
    const migrate = job.spec!.template.spec!.containers[0];
    assert.equal(migrate.image, apiContainer.image);
    assert.deepEqual(migrate.command, ['node', 'services/api/dist/cli.js', 'migrate']);
    for (const deployment of [api, worker, job]) {
      assert.equal(deployment.spec!.template.spec!.securityContext?.runAsNonRoot, true);
      assert.equal(deployment.spec!.template.spec!.securityContext?.runAsUser, 1000);
    }
    assert.ok((api.spec!.replicas ?? 1) >= 2);
  });

  it('keeps the secrets in the Secret, the rest in the ConfigMap, every key a variable of .env.example', () => {
    const secret = one<Secret>('v1 Secret', 'kupa-secrets');
    const config = one<ConfigMap>('v1 ConfigMap', 'kupa-config');
    const secretKeys = Object.keys(secret.stringData ?? {}).sort();
    assert.deepEqual(secretKeys, SECRET_VARIABLES);
    assert.equal(secret.data, undefined);
    const configKeys = Object.keys(config.data ?? {});
    assert.deepEqual(
      configKeys.filter((key) => SECRET_VARIABLES.includes(key)),
      [],
    );
    const listed = envExampleNames();
    for (const key of [...secretKeys, ...configKeys]) assert.ok(listed.has(key), `${key} is not in .env.example`);
    for (const container of [apiContainer, workerContainer]) {
      assert.deepEqual(container.envFrom, [
        { configMapRef: { name: 'kupa-config' } },
        { secretRef: { name: 'kupa-secrets' } },
      ]);
      for (const variable of container.env ?? []) assert.ok(listed.has(variable.name), variable.name);
    }
  });

  it('connects the Service, Ingress, PDB and HPA to the API pods', () => {
    const labels = api.spec!.template.metadata!.labels;
    assert.deepEqual(api.spec!.selector.matchLabels, labels);
    assert.notDeepEqual(worker.spec!.selector.matchLabels, labels);
    const service = one<Service>('v1 Service', 'kupa-api');
    assert.deepEqual(service.spec!.selector, labels);
    assert.equal(service.spec!.ports![0].targetPort, 'http');
    const ingress = one<Ingress>('networking.k8s.io/v1 Ingress', 'kupa');
    const backend = ingress.spec!.rules![0].http!.paths[0].backend.service!;
    assert.equal(backend.name, 'kupa-api');
    assert.equal(backend.port?.name, service.spec!.ports![0].name);
    const pdb = one<PodDisruptionBudget>('policy/v1 PodDisruptionBudget', 'kupa-api');
    assert.deepEqual(pdb.spec!.selector!.matchLabels, labels);
    assert.ok(Number(pdb.spec!.minAvailable) < (api.spec!.replicas ?? 1));
    const hpa = one<HorizontalPodAutoscaler>('autoscaling/v2 HorizontalPodAutoscaler', 'kupa-api');
    assert.deepEqual(hpa.spec!.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'kupa-api' });
    assert.ok(hpa.spec!.minReplicas! >= 2 && hpa.spec!.maxReplicas > hpa.spec!.minReplicas!);
  });
});
