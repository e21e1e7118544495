import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { envExampleNames } from './env-example.ts';
import { DEPLOY_DIR, REPOSITORY_ROOT } from './paths.ts';

/** deploy/compose.yaml's structure (no container engine here, so its shape is what is checked). */

interface Healthcheck {
  test: string[] | string;
}
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; target: string };
  env_file?: Array<{ path: string; required: boolean }>;
  environment?: Record<string, string>;
  command?: string[];
  depends_on?: Record<string, { condition: string; required?: boolean }>;
  healthcheck?: Healthcheck;
  profiles?: string[];
  deploy?: { replicas?: number };
  ports?: string[];
  expose?: string[];
  volumes?: string[];
}
interface Compose {
  name: string;
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

const text = readFileSync(join(DEPLOY_DIR, 'compose.yaml'), 'utf8');
const compose = parse(text, { merge: true }) as Compose;
const { services } = compose;
const KUPA_SERVICES = ['migrate', 'api', 'worker'];

function healthcheckCommand(service: Service): string {
  const test = service.healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : (test ?? '');
}

describe('deploy/compose.yaml', () => {
  it('runs PostgreSQL, a one-shot migration, two API replicas, two workers and nginx; Kafka only in its profile', () => {
    assert.deepEqual(Object.keys(services).sort(), ['api', 'kafka', 'migrate', 'nginx', 'postgres', 'worker']);
    assert.equal(services.api.deploy?.replicas, 2);
    // The second worker is the standby that takes the processors over (README, Processes).
    assert.equal(services.worker.deploy?.replicas, 2);
    assert.match(String(services.postgres.image), /^postgres:1[5-9]\b/);
    assert.deepEqual(services.kafka.profiles, ['kafka']);
    for (const [name, service] of Object.entries(services))
      if (name !== 'kafka') assert.equal(service.profiles, undefined, `${name} must start without a profile`);
  });

  it('gives each Kupa service its role, the .env file and the compose database', () => {
    const roles = Object.fromEntries(KUPA_SERVICES.map((name) => [name, services[name].environment?.KUPA_ROLE]));
    assert.deepEqual(roles, { migrate: 'worker', api: 'api', worker: 'worker' });
    for (const name of KUPA_SERVICES) {
      const service = services[name];
      assert.deepEqual(service.env_file, [{ path: '.env', required: true }], name);
      assert.match(
        String(service.environment?.DATABASE_URL),
        /^postgres:\/\/kupa:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/kupa$/,
      );
      assert.equal(service.environment?.TRUST_PROXY, 'uniquelocal', name);
      assert.equal(service.image, '${KUPA_IMAGE:-kupa:latest}', name);
      assert.deepEqual(service.build, { context: '..', dockerfile: 'deploy/Dockerfile', target: 'server' }, name);
    }
    // Nothing secret is spelt out: the secrets come from .env, the database's password through interpolation.
    const names = new Set(KUPA_SERVICES.flatMap((name) => Object.keys(services[name].environment ?? {})));
    assert.deepEqual([...names].sort(), ['DATABASE_URL', 'KUPA_DATA_DIR', 'KUPA_ROLE', 'TRUST_PROXY', 'WORKER_PORT']);
    assert.match(String(services.postgres.environment?.POSTGRES_PASSWORD), /^\$\{POSTGRES_PASSWORD:\?[^}]*\}$/);
    assert.deepEqual(services.migrate.command, ['node', 'services/api/dist/cli.js', 'migrate']);
    assert.equal(services.nginx.build?.target, 'web');
  });

  it('starts each service only once what it needs is healthy or done', () => {
    for (const name of ['api', 'worker']) {
      assert.deepEqual(services[name].depends_on, {
        postgres: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
        kafka: { condition: 'service_healthy', required: false },
      });
    }
    assert.deepEqual(services.migrate.depends_on, { postgres: { condition: 'service_healthy' } });
    assert.deepEqual(services.nginx.depends_on, { api: { condition: 'service_healthy' } });
    for (const [name, service] of Object.entries(services))
      for (const dependency of Object.keys(service.depends_on ?? {}))
        assert.ok(services[dependency], `${name} depends on a missing ${dependency}`);
  });

  it('checks the health of every long-running service that can answer, the API on its readiness route', () => {
    assert.match(healthcheckCommand(services.postgres), /pg_isready -U kupa -d kupa/);
    assert.match(healthcheckCommand(services.api), /http:\/\/127\.0\.0\.1:3000\/api\/health\/ready/);
    assert.match(healthcheckCommand(services.nginx), /http:\/\/127\.0\.0\.1\/healthz/);
    assert.match(readFileSync(join(DEPLOY_DIR, 'nginx.conf'), 'utf8'), /location = \/healthz \{/);
    assert.match(healthcheckCommand(services.kafka), /kafka-topics\.sh --bootstrap-server 127\.0\.0\.1:9092/);
    // The worker answers on its own port (WORKER_PORT), not the API's; the migration exits.
    const workerPort = services.worker.environment?.WORKER_PORT;
    assert.match(healthcheckCommand(services.worker), new RegExp(`http://127\\.0\\.0\\.1:${workerPort}/health/ready`));
    assert.deepEqual(services.worker.expose, [workerPort]);
    assert.equal(services.worker.ports, undefined, 'the worker port stays on the compose network');
    assert.equal(services.migrate.healthcheck, undefined);
  });

  it('builds from files that exist, with targets the Dockerfile defines', () => {
    const dockerfile = readFileSync(join(DEPLOY_DIR, 'Dockerfile'), 'utf8');
    // The image's pg_dump is the database's major version, so `kupa backup` works inside it.
    const clientMajor = /^ARG POSTGRES_MAJOR=(\d+)$/m.exec(dockerfile)?.[1];
    assert.equal(`postgres:${clientMajor}`, services.postgres.image);
    const stages = [...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((match) => match[1]);
    for (const [name, service] of Object.entries(services)) {
      if (!service.build) continue;
      const context = resolve(DEPLOY_DIR, service.build.context);
      assert.ok(existsSync(join(context, service.build.dockerfile)), name);
      assert.ok(stages.includes(service.build.target), `${name}: no stage ${service.build.target}`);
    }
  });

  it('runs the Kafka version the Kafka specs test against (scripts/kafka/pom.xml)', () => {
    const read = (path: string): string => readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
    const pom = read('scripts/kafka/pom.xml');
    const tested = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(pom)?.[1];
    assert.ok(tested, 'scripts/kafka/pom.xml names no kafka.version');
    assert.equal(services.kafka.image, `apache/kafka:${tested}`);
    // That version is the one CI's broker runs: CI runs `npm run test:kafka`, which is scripts/test-kafka.sh, which
    // starts scripts/kafka-broker.sh, which fetches the broker that the pom names, by that property and no other.
    assert.match(read('.ci/run'), /^stage kafka npm run test:kafka$/m);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    assert.equal(scripts['test:kafka'], 'bash scripts/test-kafka.sh');
    assert.match(read('scripts/test-kafka.sh'), /^bash scripts\/kafka-broker\.sh start$/m);
    const broker = read('scripts/kafka-broker.sh');
    assert.match(broker, /^POM="\$ROOT\/scripts\/kafka\/pom\.xml"$/m);
    assert.match(broker, /mvn -q -B -f "\$POM" dependency:copy-dependencies/);
    const withoutAddresses = broker.replaceAll(/\b\d+\.\d+\.\d+\.\d+\b/g, '');
    assert.doesNotMatch(withoutAddresses, /\b\d+\.\d+\.\d+\b/, 'kafka-broker.sh pins no version of its own');
    const brokers = [...pom.matchAll(/<artifactId>kafka_2\.13<\/artifactId>\s*<version>([^<]+)<\/version>/g)];
    assert.deepEqual(
      brokers.map((match) => match[1]),
      ['${kafka.version}'],
    );
    // What README tells an operator the specs run.
    const [major, minor] = tested.split('.');
    assert.match(
      read('README.md'),
      new RegExp(`fetches\\s+Kafka ${major}\\.${minor} \\(\`org\\.apache\\.kafka:kafka_2\\.13\`\\)`),
    );
  });

  it('interpolates only variables .env.example lists or that have a default', () => {
    const listed = envExampleNames();
    for (const match of text.matchAll(/\$\{([A-Z][A-Z0-9_]*)(:?[-?][^}]*)?\}/g)) {
      const [, name, fallback] = match;
      assert.ok(listed.has(name) || fallback?.includes('-'), `${name} is neither in .env.example nor defaulted`);
    }
    for (const volume of ['pgdata', 'backups', 'kafka']) assert.ok(volume in compose.volumes, volume);
  });

  it('passes a read replica from deploy/.env to the API and workers, and needs none', () => {
    // compose hands every Kupa service the whole .env; an `environment` entry would override it (as DATABASE_URL does).
    for (const name of KUPA_SERVICES) {
      assert.deepEqual(services[name].env_file, [{ path: '.env', required: true }], name);
      assert.equal(services[name].environment?.DATABASE_REPLICA_URL, undefined, name);
    }
    assert.doesNotMatch(text, /DATABASE_REPLICA_URL/);
    // Listed as an example left off: a copy of .env.example runs without a replica.
    const example = readFileSync(join(DEPLOY_DIR, '.env.example'), 'utf8');
    assert.match(example, /^# DATABASE_REPLICA_URL=postgres:\/\//m);
    assert.doesNotMatch(example, /^DATABASE_REPLICA_URL=/m);
    assert.match(example, /^DATABASE_REPLICA_MAX_LAG_SECONDS=\d+$/m);
    const readme = readFileSync(join(REPOSITORY_ROOT, 'README.md'), 'utf8');
    assert.match(readme, /^\| `DATABASE_REPLICA_URL` \| unset → every read on `DATABASE_URL` \|/m);
    assert.match(readme, /^\| `DATABASE_REPLICA_MAX_LAG_SECONDS` \| `30` \|/m);
  });
});
