import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import type { Deployment } from 'kubernetes-models/apps/v1';
import { parse } from 'yaml';
import { kustomize } from './kustomize.ts';
import { DEPLOY_DIR } from './paths.ts';

/**
 * deploy/ cannot mint money (docs/adr/0055-sandboxes-only-on-demand.md): the sandbox cashier and the streaming
 * simulator run on a named database only with KUPA_SANDBOX=1, and nothing in deploy/ says so. Every Kupa process
 * there runs on a named database, so the server's own default keeps them off.
 */

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** `NAME=value` lines of deploy/.env.example (examples left off with `# ` are not set). */
function envExample(): Map<string, string> {
  const text = readFileSync(join(DEPLOY_DIR, '.env.example'), 'utf8');
  return new Map([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1], match[2].trim()]));
}

describe('deploy/ ships no sandbox', () => {
  it('turns KUPA_SANDBOX on nowhere, in any file', () => {
    // Set to anything but 0 or false (or nothing), in a shell, env, YAML or Dockerfile line; comments may name it.
    const on = /KUPA_SANDBOX\s*[:=]\s*['"]?\s*(?!0\b|false\b|['"]?\s*$)[^\s'"]+/;
    const setsIt = (path: string) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .some((line) => on.test(line.replace(/(^|\s)#.*$/, '')));
    const offenders = filesUnder(DEPLOY_DIR).filter(setsIt);
    assert.deepEqual(
      offenders.map((path) => relative(DEPLOY_DIR, path)),
      [],
    );
  });

  it('names KUPA_SANDBOX=0 in .env.example, beside a cashier and a streaming service left to fill in', () => {
    const env = envExample();
    assert.equal(env.get('KUPA_SANDBOX'), '0');
    // Empty, the server has no cashier (crypto deposits answer 503) and refuses to start without the service.
    assert.ok(env.has('CASHIER_URL') && env.has('PROVISIONING_URL'));
  });

  it('runs every Kupa service of compose.yaml on a named database, where the sandboxes are off by default', () => {
    const compose = parse(readFileSync(join(DEPLOY_DIR, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string> }>;
    };
    for (const name of ['migrate', 'api', 'worker']) {
      const environment = compose.services[name]?.environment ?? {};
      assert.match(environment.DATABASE_URL ?? '', /^postgres:\/\//, `${name} runs on compose's PostgreSQL`);
      assert.equal(environment.KUPA_SANDBOX, undefined, `${name} sets no KUPA_SANDBOX`);
    }
  });

  it('gives the Kubernetes pods a real cashier and streaming service, and no KUPA_SANDBOX', () => {
    for (const overlay of ['development', 'production']) {
      const objects = kustomize(join(DEPLOY_DIR, 'k8s', 'overlays', overlay));
      const config = objects.find((object) => object.kind === 'ConfigMap')?.data as Record<string, string>;
      assert.match(config.CASHIER_URL ?? '', /^https:\/\//, overlay);
      assert.match(config.PROVISIONING_URL ?? '', /^https:\/\//, overlay);
      assert.equal(config.KUPA_SANDBOX, undefined);
      const deployments = objects.filter((object) => object.kind === 'Deployment') as unknown as Deployment[];
      assert.equal(deployments.length, 2);
      for (const deployment of deployments) {
        const env = deployment.spec!.template.spec!.containers[0].env ?? [];
        assert.equal(
          env.find((variable) => variable.name === 'KUPA_SANDBOX'),
          undefined,
        );
        // The pods run on a named database, from the Secret.
        assert.deepEqual(env.find((variable) => variable.name === 'DATABASE_URL')?.valueFrom, {
          secretKeyRef: { name: 'kupa-secrets', key: 'DATABASE_URL' },
        });
      }
    }
  });
});
