import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kustomize, type KubernetesObject } from './kustomize.ts';
import { DEPLOY_DIR, REPOSITORY_ROOT } from './paths.ts';

/**
 * README's Production section: the point-in-time recovery and sizing an operator plans with are there, their figures
 * are the bench's (docs/benchmarks.md), the estimates follow from those figures, and what they say of the manifests
 * (requests, limits, the autoscaler, the backups, the pools) is what the manifests and the server hold.
 */
const read = (path: string): string => readFileSync(join(REPOSITORY_ROOT, path), 'utf8');
const readme = read('README.md');
const benchmarks = read('docs/benchmarks.md');
const production = readme.slice(readme.indexOf('\n## Production\n'), readme.indexOf('\n## How it is built\n'));

/** A bold-titled paragraph of the Production section, up to the next one (`**Title.**` at a line's start). */
function paragraph(title: string): string {
  const start = production.indexOf(`\n**${title}`);
  assert.ok(start >= 0, `README, Production has no **${title}**`);
  const end = production.indexOf('\n**', start + 1);
  return production.slice(start, end < 0 ? undefined : end);
}

/** A number as README writes it (1,176 / 2.39), read. */
function number(text: string): number {
  return Number(text.replaceAll(',', ''));
}

/** The first capture of a pattern that must match. */
function capture(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  assert.ok(match, `no ${pattern}`);
  return match[1];
}

function near(actual: number, expected: number, what: string): void {
  assert.ok(
    Math.abs(actual - expected) / expected <= 0.05,
    `${what}: README says ${actual}, the figures give ${expected}`,
  );
}

type Container = { resources: { requests: Record<string, string>; limits: Record<string, string> } };
function containerOf(objects: KubernetesObject[], name: string): Container {
  const deployment = objects.find(
    (object) => object.kind === 'Deployment' && object.metadata.name === name,
  ) as unknown as {
    spec: { template: { spec: { containers: Container[] } } };
  };
  return deployment.spec.template.spec.containers[0];
}

const base = kustomize(join(DEPLOY_DIR, 'k8s', 'base'));
const productionObjects = kustomize(join(DEPLOY_DIR, 'k8s', 'overlays', 'production'));
const hpaOf = (objects: KubernetesObject[]) =>
  objects.find((object) => object.kind === 'HorizontalPodAutoscaler') as unknown as {
    spec: {
      minReplicas: number;
      maxReplicas: number;
      metrics: Array<{ resource: { target: { averageUtilization: number } } }>;
    };
  };

describe('README, Production', () => {
  it('explains point-in-time recovery with a WAL archive, in PostgreSQL’s own settings, and how it meets kupa backup', () => {
    const pitr = paragraph('Point-in-time recovery.');
    for (const setting of [
      'wal_level = replica',
      'archive_mode = on',
      '`archive_command`',
      'archive_timeout = 60',
      'pg_basebackup -D',
      "restore_command = 'cp /archive/%f %p'",
      'recovery_target_time = ',
      "recovery_target_action = 'promote'",
      '`recovery.signal`',
      'kupa ledger verify',
      '`kupa backup`',
    ])
      assert.ok(pitr.includes(setting), `the section lacks ${setting}`);
    // The archive's volume, from the WAL the bench measured per transfer.
    const walKiB = number(capture(pitr, /a transfer writes about ([\d.]+) KiB of WAL/));
    assert.match(
      benchmarks,
      new RegExp(`${String(walKiB).replace('.', '\\.')} KiB and about \\d+ WAL records per transfer`),
    );
    const perMillionGiB = number(capture(pitr, /a million transfers archive about (\d+) GiB/));
    near(perMillionGiB, (walKiB * 1_000_000) / 1024 ** 2, 'WAL of a million transfers');
    // The manifests point here for it.
    assert.match(read('deploy/k8s/base/backup-cronjob.yaml'), /README, Production: Point-in-time\n# recovery/);
  });

  it('sizes from the bench: CPU per operation as measured, the estimates following from it', () => {
    const sizing = paragraph('Sizing.');
    assert.match(sizing, /`docs\/benchmarks\.md`/);
    const row = (name: string): number[] =>
      capture(sizing, new RegExp(`^\\| ${name} \\| ([^\\n]+) \\|$`, 'm'))
        .split(' | ')
        .map((cell) => number(capture(cell, /^([\d.]+) ms$/)));
    const [apiCommand, databaseCommand, workerCommand] = row('ledger command \\(transfer\\)');
    const [apiPurchase, databasePurchase, workerPurchase] = row('purchase from the balance[^|]*');
    assert.ok(benchmarks.includes(`(API ${apiCommand}, PostgreSQL ${databaseCommand}, worker ${workerCommand},`));
    assert.ok(benchmarks.includes(`(API ${apiPurchase}, PostgreSQL ${databasePurchase}, worker ${workerPurchase})`));
    const perCore =
      /one API core carries about (\d+) commands\/s \(or (\d+) purchases\/s\), one PostgreSQL core about (\d+) commands\/s \((\d+) purchases\/s\)/.exec(
        sizing.replaceAll('\n', ' '),
      );
    assert.ok(perCore, 'the per-core estimate');
    near(number(perCore[1]), 1000 / apiCommand, 'commands per API core');
    near(number(perCore[2]), 1000 / apiPurchase, 'purchases per API core');
    near(number(perCore[3]), 1000 / databaseCommand, 'commands per PostgreSQL core');
    near(number(perCore[4]), 1000 / databasePurchase, 'purchases per PostgreSQL core');
    const sustained =
      /A sustained (\d+) commands\/s thus needs\s+about ([\d.]+) API cores and ([\d.]+) PostgreSQL cores/.exec(sizing);
    assert.ok(sustained, 'the worked example');
    near(number(sustained[2]), (number(sustained[1]) * apiCommand) / 1000, 'API cores');
    near(number(sustained[3]), (number(sustained[1]) * databaseCommand) / 1000, 'PostgreSQL cores');
    // Memory and disk, as measured.
    const [rssFrom, rssTo] = capture(sizing, /held (\d+ to\s+\d+) MiB/).split(/ to\s+/);
    assert.ok(benchmarks.includes(`RSS ${rssFrom} → ${rssTo} MiB`));
    const bytesPerEvent = capture(sizing, /measured ([\d,]+) bytes per event/);
    assert.ok(benchmarks.includes(`**${bytesPerEvent} bytes per event**`));
    near(
      number(capture(sizing, /about ([\d.]+) GiB per million events/)),
      (number(bytesPerEvent) * 1e6) / 1024 ** 3,
      'GiB per million events',
    );
  });

  it('says of the manifests and the server what they hold', () => {
    const sizing = paragraph('Sizing.');
    const whenToAdd = paragraph('When to add a replica.');
    const scaling = paragraph('Scaling.');
    const backups = paragraph('Backup and restore.');
    for (const name of ['kupa-api', 'kupa-worker']) {
      const { requests, limits } = containerOf(base, name).resources;
      const match = /the pods'\s+(\d+) MiB request\s+and\s+(\d+) MiB\s+limit/.exec(sizing);
      assert.ok(match, 'the pods’ memory');
      const [, request, limit] = match;
      assert.equal(requests.memory, `${request}Mi`, name);
      assert.equal(limits.memory, `${limit}Mi`, name);
    }
    assert.equal(containerOf(base, 'kupa-api').resources.requests.cpu, '1');
    assert.match(sizing, /the API pod's one-core request/);
    const hpa = hpaOf(base);
    const utilization = hpa.spec.metrics[0].resource.target.averageUtilization;
    assert.match(sizing, new RegExp(`at the HPA's ${utilization} %`));
    assert.match(whenToAdd, new RegExp(`above ${utilization} % of their one-core request`));
    // Commands per replica at the autoscaler's target: the per-core figure times its utilization.
    const apiCommand = number(capture(sizing, /^\| ledger command \(transfer\) \| ([\d.]+) ms/m));
    near(
      number(capture(whenToAdd, /about (\d+) commands\/s/)),
      (1000 / apiCommand) * (utilization / 100),
      'per replica',
    );
    assert.match(scaling, new RegExp(`the autoscaler's maximum of ${hpa.spec.maxReplicas} replicas`));
    const productionHpa = hpaOf(productionObjects);
    assert.match(
      production,
      new RegExp(`runs ${productionHpa.spec.minReplicas}–${productionHpa.spec.maxReplicas} API\\s+replicas`),
    );
    // The pools: the primary's per process, the replica's per API process.
    const pool = capture(read('services/api/src/app.module.ts'), /export const DATABASE_POOL_SIZE = (\d+);/);
    assert.match(
      scaling,
      new RegExp(`a pool of up to ${pool} connections: \\(API processes \\+ workers \\+ 1\\) × ${pool}`),
    );
    const replicaPool = capture(
      read('services/api/src/platform/database/read-replica.ts'),
      /REPLICA_POOL_SIZE = (\d+);/,
    );
    assert.match(production, new RegExp(`Each API process holds up to ${replicaPool} connections to\\s+the replica`));
    // The nightly backup: when, how many kept, and the claim sized for them.
    const cronJob = read('deploy/k8s/base/backup-cronjob.yaml');
    const [minute, hour] = capture(cronJob, /schedule: '([^']+)'/).split(' ');
    assert.match(backups, new RegExp(`every night at ${hour.padStart(2, '0')}:${minute} UTC`));
    const olderThan = number(capture(cronJob, /-mtime \+(\d+) -delete/));
    assert.match(backups, new RegExp(`keeps ${olderThan + 1} days`));
    // Files older than that go after each run: the claim holds that many and the night's new one.
    assert.match(sizing, new RegExp(`size\\s+the \`kupa-backups\` claim at ${olderThan + 2} backups`));
  });
});
