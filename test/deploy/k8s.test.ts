import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import type { IContainer, IPodSpec } from 'kubernetes-models/v1';
import type { ILabelSelector } from '@kubernetes-models/apimachinery/apis/meta/v1/LabelSelector';
import { loadConfig } from '@kupa/api/testing';
import { envExampleNames } from './env-example.ts';
import { kustomize, type KubernetesObject } from './kustomize.ts';
import { DEPLOY_DIR, REPOSITORY_ROOT } from './paths.ts';
import { unknownFields } from './unknown-fields.ts';

/**
 * deploy/k8s/: the base and each overlay rendered as `kubectl kustomize` does (./kustomize.ts), every object validated
 * against the Kubernetes schemas (kubernetes-models), and the references between them and to the server checked:
 * probe paths, secret references, selectors, names, the network policies' reach.
 */
const MODELS = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 CronJob': CronJob,
  'batch/v1 Job': Job,
  'networking.k8s.io/v1 Ingress': Ingress,
  'networking.k8s.io/v1 NetworkPolicy': NetworkPolicy,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Namespace': Namespace,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Service': Service,
} as const;
type Key = keyof typeof MODELS;

/** The variables that are secrets: in the Secret kupa-secrets (made outside the repository), never in the ConfigMap. */
const SECRET_VARIABLES = [
  'ADMIN_PASSWORD',
  'CASHIER_API_KEY',
  'CASHIER_IPN_SECRET',
  'DATABASE_REPLICA_URL',
  'DATABASE_URL',
  'JWT_SECRET',
  'METRICS_TOKEN',
  'PROVISIONING_TOKEN',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_WEBHOOK_SECRET',
  'TWO_FACTOR_KEY',
];
/** The ones every API and worker process must share: a pod without them must not start (ADR 0037, Consequences). */
const SHARED_SECRETS = ['DATABASE_URL', 'JWT_SECRET', 'TWO_FACTOR_KEY', 'PROVISIONING_TOKEN', 'METRICS_TOKEN'];

const K8S_DIR = join(DEPLOY_DIR, 'k8s');
const OVERLAYS = ['development', 'production'] as const;

function keyOf(object: KubernetesObject): Key {
  return `${object.apiVersion} ${object.kind}` as Key;
}

class Rendered {
  constructor(
    readonly name: string,
    readonly objects: KubernetesObject[],
  ) {}

  one<T>(key: Key, name: string): T {
    const found = this.objects.filter((object) => keyOf(object) === key && object.metadata.name === name);
    assert.equal(found.length, 1, `${this.name}: ${found.length} of ${key} ${name}`);
    return found[0] as T;
  }

  all<T>(key: Key): T[] {
    return this.objects.filter((object) => keyOf(object) === key) as T[];
  }

  /** Every pod template: the Deployments', the Job's and the CronJob's, with the labels its pods carry. */
  pods(): Array<{ owner: string; labels: Record<string, string>; spec: IPodSpec }> {
    return [
      ...this.all<Deployment>('apps/v1 Deployment').map((d) => ({
        owner: d.metadata!.name!,
        template: d.spec!.template,
      })),
      ...this.all<Job>('batch/v1 Job').map((j) => ({ owner: j.metadata!.name!, template: j.spec!.template })),
      ...this.all<CronJob>('batch/v1 CronJob').map((c) => ({
        owner: c.metadata!.name!,
        template: c.spec!.jobTemplate.spec!.template,
      })),
    ].map(({ owner, template }) => ({ owner, labels: template.metadata!.labels!, spec: template.spec! }));
  }
}

const base = new Rendered('base', kustomize(join(K8S_DIR, 'base')));
const overlays = OVERLAYS.map((overlay) => new Rendered(overlay, kustomize(join(K8S_DIR, 'overlays', overlay))));
const everything = [base, ...overlays];
/** Worked examples an operator copies beside the overlays (docs/adr/0121): a read replica, PostgreSQL and Kafka inside the cluster. */
const EXAMPLES = ['read-replica', 'in-cluster-data'] as const;
const examples = Object.fromEntries(
  EXAMPLES.map((example) => [example, new Rendered(example, kustomize(join(K8S_DIR, 'examples', example)))]),
) as Record<(typeof EXAMPLES)[number], Rendered>;
const production = overlays.find((overlay) => overlay.name === 'production')!;

/** What the Secret would hold in these checks: the shared keys set, the optional ones left out. */
const SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgres://kupa:password@db.internal:5432/kupa',
  JWT_SECRET: 'j'.repeat(64),
  TWO_FACTOR_KEY: 't'.repeat(64),
  PROVISIONING_TOKEN: 'p'.repeat(32),
  METRICS_TOKEN: 'm'.repeat(32),
  SMTP_URL: 'smtp://user:password@smtp.example.com:587',
};

const api = base.one<Deployment>('apps/v1 Deployment', 'kupa-api');
const worker = base.one<Deployment>('apps/v1 Deployment', 'kupa-worker');
const apiContainer = api.spec!.template.spec!.containers[0];
const workerContainer = worker.spec!.template.spec!.containers[0];

function role(container: IContainer): string | undefined {
  return container.env?.find((variable) => variable.name === 'KUPA_ROLE')?.value;
}

/** Whether a label selector selects these labels (matchLabels and the In / NotIn / Exists operators). */
function selects(selector: ILabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values } of selector.matchExpressions ?? []) {
    const ok =
      operator === 'In'
        ? values!.includes(labels[key])
        : operator === 'NotIn'
          ? !values!.includes(labels[key])
          : operator === 'Exists'
            ? key in labels
            : !(key in labels);
    if (!ok) return false;
  }
  return true;
}

/** The TCP/UDP ports a pod with these labels may reach, each with the peers allowed, under the rendered policies. */
function egressPorts(rendered: Rendered, labels: Record<string, string>): Map<number, unknown[]> {
  const ports = new Map<number, unknown[]>();
  for (const policy of rendered.all<NetworkPolicy>('networking.k8s.io/v1 NetworkPolicy')) {
    if (!selects(policy.spec!.podSelector, labels)) continue;
    for (const rule of policy.spec!.egress ?? [])
      // A rule's UDP and TCP of one port count once.
      for (const port of new Set((rule.ports ?? []).map((allowed) => Number(allowed.port))))
        ports.set(port, [...(ports.get(port) ?? []), ...(rule.to ?? [])]);
  }
  return ports;
}

/** Whether a policy peer in a policy of `policyNamespace` selects a pod of `namespace` with these labels. */
function peerSelects(
  peer: { namespaceSelector?: ILabelSelector; podSelector?: ILabelSelector },
  policyNamespace: string,
  namespace: string,
  labels: Record<string, string>,
): boolean {
  const inNamespace = peer.namespaceSelector
    ? selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': namespace })
    : namespace === policyNamespace;
  return inNamespace && (peer.podSelector === undefined || selects(peer.podSelector, labels));
}

/** The peers (their `from`) allowed into a pod with these labels on a port. */
function ingressPeers(rendered: Rendered, labels: Record<string, string>, port: number): unknown[] {
  return rendered
    .all<NetworkPolicy>('networking.k8s.io/v1 NetworkPolicy')
    .filter((policy) => selects(policy.spec!.podSelector, labels))
    .flatMap((policy) => policy.spec!.ingress ?? [])
    .filter((rule) => (rule.ports ?? []).some((allowed) => Number(allowed.port) === port))
    .flatMap((rule) => rule.from ?? []);
}

describe('deploy/k8s', () => {
  it('renders the base and both overlays, each with every kind this deployment needs', () => {
    const expected = [
      'apps/v1 Deployment',
      'apps/v1 Deployment',
      'autoscaling/v2 HorizontalPodAutoscaler',
      'batch/v1 CronJob',
      'batch/v1 Job',
      'networking.k8s.io/v1 Ingress',
      ...Array<Key>(7).fill('networking.k8s.io/v1 NetworkPolicy'),
      'policy/v1 PodDisruptionBudget',
      'policy/v1 PodDisruptionBudget',
      'v1 ConfigMap',
      'v1 PersistentVolumeClaim',
      'v1 Service',
    ];
    assert.deepEqual(base.objects.map(keyOf).sort(), expected);
    for (const overlay of overlays)
      assert.deepEqual(overlay.objects.map(keyOf).sort(), [...expected, 'v1 Namespace'].sort(), overlay.name);
  });

  it('renders every manifest under deploy/k8s through a kustomization, so none escapes the schema check', () => {
    const files = readdirSync(K8S_DIR, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.yaml'))
      .map((file) => join(K8S_DIR, file));
    const kustomizations = files.filter((file) => file.endsWith('/kustomization.yaml'));
    const rendered = [join(K8S_DIR, 'base'), ...OVERLAYS.map((o) => join(K8S_DIR, 'overlays', o))].concat(
      EXAMPLES.map((example) => join(K8S_DIR, 'examples', example)),
    );
    assert.deepEqual(kustomizations.map(dirname).sort(), [...rendered].sort());
    const resources = kustomizations.flatMap((file) =>
      ((parse(readFileSync(file, 'utf8')) as { resources?: string[] }).resources ?? [])
        .filter((resource) => resource.endsWith('.yaml'))
        .map((resource) => join(dirname(file), resource)),
    );
    assert.deepEqual(
      files
        .filter((file) => !kustomizations.includes(file))
        .map((file) => relative(K8S_DIR, file))
        .sort(),
      resources.map((file) => relative(K8S_DIR, file)).sort(),
    );
  });

  it('validates every rendered object against the Kubernetes schema, the examples too', () => {
    for (const { name, objects } of [...everything, ...Object.values(examples)])
      for (const object of objects) {
        const Model = MODELS[keyOf(object)];
        assert.ok(Model, `${name}: ${keyOf(object)} is not a kind these checks know`);
        assert.doesNotThrow(
          () => new Model(object as never).validate(),
          `${name}: ${keyOf(object)} ${object.metadata.name}`,
        );
        // The schemas leave objects open: a misspelt field would pass validate() and be dropped by the server.
        assert.deepEqual(unknownFields(Model, object), [], `${name}: ${keyOf(object)} ${object.metadata.name}`);
      }
  });

  it('the schema check itself refuses a broken manifest and a misspelt field', () => {
    const broken = structuredClone(api);
    broken.spec!.template.spec!.containers[0].ports = [{ containerPort: 'http' as unknown as number }];
    assert.throws(() => new Deployment(broken).validate(), /containerPort must be integer/);
    const misspelt = structuredClone(api) as unknown as { spec: { template: { spec: { containers: object[] } } } };
    misspelt.spec.template.spec.containers[0] = { ...apiContainer, imagePullPolcy: 'Always' };
    assert.doesNotThrow(() => new Deployment(misspelt as Deployment).validate(), 'the schema alone lets it through');
    assert.deepEqual(unknownFields(Deployment, misspelt), ['/spec/template/spec/containers/0/imagePullPolcy']);
    const policy = structuredClone(base.one<NetworkPolicy>('networking.k8s.io/v1 NetworkPolicy', 'kupa-dns'));
    (policy.spec as unknown as Record<string, unknown>).policyTypes = 'Egress';
    assert.throws(() => new NetworkPolicy(policy).validate(), /policyTypes must be array/);
  });

  it('puts each overlay in its own namespace, under the restricted Pod Security Standard, with its image', () => {
    const expected = { development: ['kupa-dev', 'kupa:dev'], production: ['kupa', 'registry.example.com/kupa:0.1.0'] };
    for (const overlay of overlays) {
      const [namespace, image] = expected[overlay.name as (typeof OVERLAYS)[number]];
      const ns = overlay.one<Namespace>('v1 Namespace', namespace);
      assert.equal(ns.metadata!.labels!['pod-security.kubernetes.io/enforce'], 'restricted');
      for (const object of overlay.objects)
        if (object.kind !== 'Namespace') assert.equal(object.metadata.namespace, namespace, object.metadata.name);
      for (const pod of overlay.pods()) {
        assert.deepEqual(
          pod.spec.containers.map((container) => container.image),
          [image],
          `${overlay.name}: ${pod.owner}`,
        );
        // What the restricted standard asks of every pod.
        assert.equal(pod.spec.securityContext?.runAsNonRoot, true, pod.owner);
        assert.equal(pod.spec.securityContext?.seccompProfile?.type, 'RuntimeDefault', pod.owner);
        assert.equal(pod.spec.automountServiceAccountToken, false, pod.owner);
        for (const container of pod.spec.containers) {
          assert.equal(container.securityContext?.allowPrivilegeEscalation, false, pod.owner);
          assert.deepEqual(container.securityContext?.capabilities?.drop, ['ALL'], pod.owner);
          assert.equal(container.securityContext?.readOnlyRootFilesystem, true, pod.owner);
        }
      }
    }
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
  });

  it('names the scrape targets in annotations, the paths and ports the processes serve metrics on', () => {
    // The API's metrics are MetricsController's GET under the global prefix: /api/metrics.
    const metrics = readFileSync(
      join(REPOSITORY_ROOT, 'services/api/src/platform/observability/metrics.controller.ts'),
      'utf8',
    );
    assert.match(metrics, /@Controller\('metrics'\)\s*export class MetricsController/);
    assert.match(metrics, /@Get\(\)\s*async scrape\(/);
    assert.match(readFileSync(join(REPOSITORY_ROOT, 'services/api/src/create-app.ts'), 'utf8'), /API_PREFIX = 'api'/);
    const workerPort = workerContainer.env?.find((variable) => variable.name === 'WORKER_PORT')?.value;
    assert.deepEqual(worker.spec!.template.metadata!.annotations, {
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': workerPort,
      'prometheus.io/path': '/metrics',
    });
    assert.deepEqual(api.spec!.template.metadata!.annotations, {
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(apiContainer.ports?.[0].containerPort),
      'prometheus.io/path': '/api/metrics',
    });
  });

  it('runs the roles: API replicas serve, workers work, the migration and the backup run the CLI', () => {
    assert.equal(role(apiContainer), 'api');
    assert.equal(role(workerContainer), 'worker');
    assert.deepEqual(
      workerContainer.ports?.map((port) => port.name),
      ['metrics'],
    );
    const migrate = base.one<Job>('batch/v1 Job', 'kupa-migrate').spec!.template.spec!.containers[0];
    assert.deepEqual(migrate.command, ['node', 'services/api/dist/cli.js', 'migrate']);
    const cronJob = base.one<CronJob>('batch/v1 CronJob', 'kupa-backup');
    assert.equal(cronJob.spec!.concurrencyPolicy, 'Forbid');
    const backupPod = cronJob.spec!.jobTemplate.spec!.template.spec!;
    const backup = backupPod.containers[0];
    assert.match(backup.command!.join(' '), /^sh -c node services\/api\/dist\/cli\.js backup --json && find /);
    const cli = readFileSync(join(REPOSITORY_ROOT, 'services/api/src/cli.commands.ts'), 'utf8');
    assert.match(cli, /words: \['backup'\]/);
    assert.match(cli, /json: \{ type: 'boolean' \}/);
    // The backups land in <KUPA_DATA_DIR>/backups, on the claim the base defines.
    const dataDir = base.one<ConfigMap>('v1 ConfigMap', 'kupa-config').data!.KUPA_DATA_DIR;
    const mount = backup.volumeMounts!.find((volumeMount) => volumeMount.mountPath === `${dataDir}/backups`);
    const volume = backupPod.volumes!.find((candidate) => candidate.name === mount?.name);
    assert.equal(volume?.persistentVolumeClaim?.claimName, 'kupa-backups');
    base.one<PersistentVolumeClaim>('v1 PersistentVolumeClaim', 'kupa-backups');
    assert.match(backup.command!.join(' '), new RegExp(`find ${dataDir}/backups -name 'kupa-\\*'`));
    for (const { owner, spec } of base.pods()) {
      assert.equal(spec.securityContext?.runAsUser, 1000, owner);
      assert.equal(spec.containers[0].image, apiContainer.image, owner);
    }
  });

  it('references the secrets, never holds them: the shared ones by key, the rest through envFrom', () => {
    const listed = envExampleNames();
    for (const rendered of everything) {
      assert.deepEqual(
        rendered.objects.filter((object) => object.kind === 'Secret'),
        [],
      );
      const config = rendered.one<ConfigMap>('v1 ConfigMap', 'kupa-config');
      const configKeys = Object.keys(config.data ?? {});
      assert.deepEqual(
        configKeys.filter((key) => SECRET_VARIABLES.includes(key)),
        [],
      );
      for (const key of configKeys) assert.ok(listed.has(key), `${key} is not in .env.example`);
      for (const { owner, spec } of rendered.pods()) {
        const container = spec.containers[0];
        assert.deepEqual(container.envFrom, [
          { configMapRef: { name: 'kupa-config' } },
          { secretRef: { name: 'kupa-secrets' } },
        ]);
        const byKey = (container.env ?? []).filter((variable) => variable.valueFrom?.secretKeyRef);
        for (const variable of byKey) {
          assert.deepEqual(variable.valueFrom!.secretKeyRef, { name: 'kupa-secrets', key: variable.name }, owner);
          assert.ok(SECRET_VARIABLES.includes(variable.name), variable.name);
        }
        // No secret spelt out in a manifest: a secret's name never has a literal value.
        for (const variable of container.env ?? [])
          if (SECRET_VARIABLES.includes(variable.name)) assert.equal(variable.value, undefined, variable.name);
        const shared = owner === 'kupa-api' || owner === 'kupa-worker' ? SHARED_SECRETS : ['DATABASE_URL'];
        assert.deepEqual(byKey.map((variable) => variable.name).sort(), [...shared].sort(), owner);
        for (const variable of container.env ?? []) assert.ok(listed.has(variable.name), variable.name);
      }
    }
  });

  it('gives every pod of each overlay a configuration the server accepts: its role, a named database, no sandbox', () => {
    const secrets = SECRETS;
    const roles: Record<string, string> = {
      'kupa-api': 'api',
      'kupa-worker': 'worker',
      'kupa-migrate': 'all',
      'kupa-backup': 'all',
    };
    for (const overlay of overlays) {
      const config = overlay.one<ConfigMap>('v1 ConfigMap', 'kupa-config').data!;
      for (const { owner, spec } of overlay.pods()) {
        const container = spec.containers[0];
        const literal = Object.fromEntries(
          (container.env ?? []).filter((variable) => variable.value !== undefined).map((v) => [v.name, v.value!]),
        );
        const env = { ...config, ...secrets, ...literal };
        const where = `${overlay.name}: ${owner}`;
        const loaded = loadConfig(env, owner === 'kupa-api' || owner === 'kupa-worker' ? 'process' : 'command-line');
        assert.equal(loaded.role, roles[owner], where);
        assert.equal(loaded.databaseUrl, secrets.DATABASE_URL, where);
        assert.equal(loaded.sandbox, false, where);
        // The data directory is the pod's writable volume (the root filesystem is read-only).
        const mounts = (container.volumeMounts ?? []).map((mount) => mount.mountPath);
        assert.ok(mounts.includes(loaded.dataDir), `${where}: KUPA_DATA_DIR ${loaded.dataDir} is not mounted`);
      }
      const trustProxy = loadConfig({ ...config, ...secrets }).trustProxy;
      assert.deepEqual(trustProxy, overlay.name === 'production' ? ['10.42.0.0/16'] : ['uniquelocal'], overlay.name);
    }
  });

  it('gives every container requests and limits, the API and workers spread over nodes and zones', () => {
    for (const rendered of everything) {
      for (const { owner, spec } of rendered.pods())
        for (const container of spec.containers) {
          const { requests, limits } = container.resources ?? {};
          for (const quantity of [requests?.cpu, requests?.memory, limits?.cpu, limits?.memory])
            assert.ok(quantity, `${rendered.name}: ${owner} lacks a request or a limit`);
        }
      for (const name of ['kupa-api', 'kupa-worker']) {
        const deployment = rendered.one<Deployment>('apps/v1 Deployment', name);
        const constraints = deployment.spec!.template.spec!.topologySpreadConstraints ?? [];
        assert.deepEqual(
          constraints.map((constraint) => constraint.topologyKey),
          ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'],
        );
        for (const constraint of constraints)
          assert.deepEqual(constraint.labelSelector?.matchLabels, deployment.spec!.selector.matchLabels);
        // A development cluster may be one node; production keeps the replicas apart.
        assert.equal(
          constraints[0].whenUnsatisfiable,
          rendered.name === 'production' ? 'DoNotSchedule' : 'ScheduleAnyway',
          `${rendered.name}: ${name}`,
        );
      }
    }
  });

  it('connects the Service, Ingress and HPA to the API pods, and a PDB to the API and to the workers', () => {
    for (const rendered of everything) {
      const apiDeployment = rendered.one<Deployment>('apps/v1 Deployment', 'kupa-api');
      const workerDeployment = rendered.one<Deployment>('apps/v1 Deployment', 'kupa-worker');
      const labels = apiDeployment.spec!.template.metadata!.labels!;
      assert.deepEqual(apiDeployment.spec!.selector.matchLabels, labels);
      assert.notDeepEqual(workerDeployment.spec!.selector.matchLabels, labels);
      const service = rendered.one<Service>('v1 Service', 'kupa-api');
      assert.deepEqual(service.spec!.selector, labels);
      assert.equal(service.spec!.ports![0].targetPort, 'http');
      const ingress = rendered.one<Ingress>('networking.k8s.io/v1 Ingress', 'kupa');
      const backend = ingress.spec!.rules![0].http!.paths[0].backend.service!;
      assert.equal(backend.name, 'kupa-api');
      assert.equal(backend.port?.name, service.spec!.ports![0].name);
      // The autoscaler owns the API's replica count; an apply must not reset it.
      assert.equal(apiDeployment.spec!.replicas, undefined);
      const hpa = rendered.one<HorizontalPodAutoscaler>('autoscaling/v2 HorizontalPodAutoscaler', 'kupa-api');
      assert.deepEqual(hpa.spec!.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'kupa-api' });
      assert.ok(hpa.spec!.maxReplicas > hpa.spec!.minReplicas!);
      const replicas = { 'kupa-api': hpa.spec!.minReplicas!, 'kupa-worker': workerDeployment.spec!.replicas ?? 1 };
      for (const [name, count] of Object.entries(replicas)) {
        const deployment = rendered.one<Deployment>('apps/v1 Deployment', name);
        const pdb = rendered.one<PodDisruptionBudget>('policy/v1 PodDisruptionBudget', name);
        assert.deepEqual(pdb.spec!.selector!.matchLabels, deployment.spec!.selector.matchLabels);
        // A budget that lets no pod go would block every node drain.
        const mayGo =
          pdb.spec!.maxUnavailable !== undefined
            ? Number(pdb.spec!.maxUnavailable)
            : count - Number(pdb.spec!.minAvailable);
        assert.ok(mayGo >= 1, `${rendered.name}: ${name}'s budget blocks drains`);
        if (rendered.name === 'production') assert.ok(count - mayGo >= 1, `${name} keeps one through a drain`);
      }
      if (rendered.name === 'production') assert.ok(hpa.spec!.minReplicas! >= 3);
    }
  });

  it('lets PostgreSQL be reached only from the API, workers, migration and backup, Kafka only from workers', () => {
    for (const rendered of everything) {
      const deny = rendered.one<NetworkPolicy>('networking.k8s.io/v1 NetworkPolicy', 'kupa-default-deny');
      assert.deepEqual(deny.spec, { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
      const reach: Record<string, number[]> = {};
      for (const { owner, labels } of rendered.pods()) {
        const ports = egressPorts(rendered, labels);
        reach[owner] = [...ports.keys()].sort((a, b) => a - b);
        // DNS only to the cluster's resolver.
        assert.deepEqual(ports.get(53), [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ]);
        for (const peer of [...(ports.get(5432) ?? []), ...(ports.get(9092) ?? [])]) {
          const cidr = (peer as { ipBlock?: { cidr: string } }).ipBlock?.cidr;
          assert.ok(cidr && !cidr.startsWith('0.0.0.0'), `${owner}: the database and brokers by address`);
        }
      }
      assert.deepEqual(reach, {
        'kupa-api': [53, 443, 465, 587, 5432],
        'kupa-worker': [53, 443, 465, 587, 5432, 9092],
        'kupa-migrate': [53, 5432],
        'kupa-backup': [53, 5432],
      });
      // The internet rule never opens the cluster's private ranges, where the database and brokers live.
      const internet = rendered.one<NetworkPolicy>('networking.k8s.io/v1 NetworkPolicy', 'kupa-internet-egress');
      assert.deepEqual(internet.spec!.egress![0].to![0].ipBlock!.except!.slice(0, 3), [
        '10.0.0.0/8',
        '172.16.0.0/12',
        '192.168.0.0/16',
      ]);
    }
  });

  it('lets the API be reached from the ingress controller and Prometheus only, the workers from Prometheus only', () => {
    const ingressController = {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
    };
    const prometheus = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } };
    for (const rendered of everything) {
      const apiPod = rendered.one<Deployment>('apps/v1 Deployment', 'kupa-api').spec!.template;
      const workerPod = rendered.one<Deployment>('apps/v1 Deployment', 'kupa-worker').spec!.template;
      const apiPort = apiPod.spec!.containers[0].ports![0].containerPort;
      const workerPort = workerPod.spec!.containers[0].ports![0].containerPort;
      assert.deepEqual(ingressPeers(rendered, apiPod.metadata!.labels!, apiPort), [ingressController, prometheus]);
      assert.deepEqual(ingressPeers(rendered, workerPod.metadata!.labels!, workerPort), [prometheus]);
      for (const { owner, labels } of rendered.pods())
        for (const port of [apiPort, workerPort, 5432])
          if (!(owner === 'kupa-api' && port === apiPort) && !(owner === 'kupa-worker' && port === workerPort))
            assert.deepEqual(ingressPeers(rendered, labels, port), [], `${owner} on ${port}`);
    }
  });

  it('lets an operator name a read replica in the Secret, and needs none', () => {
    const replica = 'postgres://kupa:password@db-replica.internal:5432/kupa';
    for (const rendered of [...overlays, examples['read-replica']]) {
      const config = rendered.one<ConfigMap>('v1 ConfigMap', 'kupa-config').data!;
      // A secret (its address holds a password): never in the ConfigMap, only through the Secret's envFrom.
      assert.equal(config.DATABASE_REPLICA_URL, undefined);
      for (const name of ['kupa-api', 'kupa-worker']) {
        const container = rendered.one<Deployment>('apps/v1 Deployment', name).spec!.template.spec!.containers[0];
        assert.ok(container.envFrom?.some((source) => source.secretRef?.name === 'kupa-secrets'));
        assert.equal(
          container.env?.find((variable) => variable.name === 'DATABASE_REPLICA_URL'),
          undefined,
        );
        const literal = Object.fromEntries((container.env ?? []).flatMap((v) => (v.value ? [[v.name, v.value]] : [])));
        const withReplica = loadConfig({ ...config, ...SECRETS, DATABASE_REPLICA_URL: replica, ...literal }, 'process');
        assert.equal(withReplica.databaseReplicaUrl, replica, `${rendered.name}: ${name}`);
        assert.equal(loadConfig({ ...config, ...SECRETS, ...literal }, 'process').databaseReplicaUrl, null);
      }
    }
    // The example adds the replica's address beside the primary's, for exactly the pods that reach the primary.
    const example = examples['read-replica'];
    for (const { owner, labels } of example.pods()) {
      const peers = egressPorts(example, labels).get(5432) ?? [];
      const primary = egressPorts(production, labels).get(5432) ?? [];
      assert.deepEqual(peers, [...primary, ...(primary.length > 0 ? [{ ipBlock: { cidr: '10.20.0.11/32' } }] : [])]);
      assert.equal(primary.length > 0, ['kupa-api', 'kupa-worker', 'kupa-migrate', 'kupa-backup'].includes(owner));
    }
    const changed = example.objects.filter(
      (object, index) => JSON.stringify(object) !== JSON.stringify(production.objects[index]),
    );
    assert.deepEqual(
      changed.map((object) => object.metadata.name),
      ['kupa-postgresql-egress'],
    );
  });

  it('with PostgreSQL and Kafka in the cluster, names them by labels and lets in only the pods that need them', () => {
    const example = examples['in-cluster-data'];
    const policies = example.all<NetworkPolicy>('networking.k8s.io/v1 NetworkPolicy');
    const postgresql = { namespace: 'kupa-data', labels: { 'app.kubernetes.io/name': 'postgresql' } };
    const kafka = { namespace: 'kupa-data', labels: { 'app.kubernetes.io/name': 'kafka' } };
    const kupaPods = example.pods();
    for (const { owner, labels } of kupaPods) {
      const ports = egressPorts(example, labels);
      for (const [port, target] of [
        [5432, postgresql],
        [9092, kafka],
      ] as const)
        for (const peer of ports.get(port) ?? []) {
          assert.equal((peer as { ipBlock?: unknown }).ipBlock, undefined, `${owner}: ${port} by address`);
          assert.ok(peerSelects(peer as never, 'kupa', target.namespace, target.labels), `${owner}: ${port}`);
        }
    }
    /** Which of Kupa's pods the policies of kupa-data let into a pod of that namespace on a port. */
    const admitted = (target: { labels: Record<string, string> }, port: number): string[] =>
      kupaPods
        .filter(({ labels }) =>
          policies
            .filter((policy) => policy.metadata!.namespace === 'kupa-data')
            .filter((policy) => selects(policy.spec!.podSelector, target.labels))
            .flatMap((policy) => policy.spec!.ingress ?? [])
            .filter((rule) => !rule.ports || rule.ports.some((allowed) => Number(allowed.port) === port))
            .some((rule) => (rule.from ?? []).some((peer) => peerSelects(peer, 'kupa-data', 'kupa', labels))),
        )
        .map(({ owner }) => owner);
    assert.deepEqual(admitted(postgresql, 5432), ['kupa-api', 'kupa-worker', 'kupa-migrate', 'kupa-backup']);
    assert.deepEqual(admitted(kafka, 9092), ['kupa-worker']);
    assert.deepEqual(admitted(kafka, 5432), []);
    // Who may reach each from Kupa's side is what the production overlay allows, only named differently.
    for (const { owner, labels } of kupaPods)
      assert.deepEqual(
        [...egressPorts(example, labels).keys()].sort(),
        [...egressPorts(production, labels).keys()].sort(),
        owner,
      );
    // The database's side stays in its namespace; everything of Kupa's in kupa.
    for (const object of example.objects)
      if (object.kind !== 'Namespace')
        assert.equal(
          object.metadata.namespace,
          object.metadata.name.match(/^kupa-(postgresql|kafka)-ingress$/) ? 'kupa-data' : 'kupa',
          object.metadata.name,
        );
  });
});
