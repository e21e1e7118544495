import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1';
import { applyJsonPatch, kustomize } from './kustomize.ts';

/** The renderer test/deploy/k8s.test.ts validates the overlays through: what it applies, and what it refuses. */

const root = mkdtempSync(join(tmpdir(), 'kupa-kustomize-'));
after(() => rmSync(root, { recursive: true, force: true }));

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: web, image: registry.example.com/web:1.0 }
`;

/** A base holding one Deployment and an overlay with this kustomization's body. */
function overlay(name: string, body: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'base'), { recursive: true });
  mkdirSync(join(dir, 'overlay'));
  writeFileSync(join(dir, 'base', 'deployment.yaml'), DEPLOYMENT);
  writeFileSync(join(dir, 'base', 'kustomization.yaml'), 'resources: [deployment.yaml]\n');
  writeFileSync(join(dir, 'overlay', 'kustomization.yaml'), `resources: [../base]\n${body}`);
  return join(dir, 'overlay');
}

describe('test/deploy/kustomize.ts', () => {
  it('applies add, remove, replace and test, and refuses a path that is not there', () => {
    const document = { a: { b: [1, 2], 'c/d': 'x' } };
    assert.deepEqual(
      applyJsonPatch(document, [
        { op: 'test', path: '/a/c~1d', value: 'x' },
        { op: 'add', path: '/a/b/-', value: 3 },
        { op: 'add', path: '/a/b/0', value: 0 },
        { op: 'replace', path: '/a/c~1d', value: 'y' },
        { op: 'remove', path: '/a/b/1' },
      ]),
      { a: { b: [0, 2, 3], 'c/d': 'y' } },
    );
    assert.deepEqual(document, { a: { b: [1, 2], 'c/d': 'x' } }, 'the input is left alone');
    assert.throws(() => applyJsonPatch(document, [{ op: 'replace', path: '/a/e', value: 1 }]), /nothing there/);
    assert.throws(() => applyJsonPatch(document, [{ op: 'add', path: '/x/y', value: 1 }]), /no x/);
    assert.throws(() => applyJsonPatch(document, [{ op: 'test', path: '/a/c~1d', value: 'z' }]), /test/);
    assert.throws(() => applyJsonPatch(document, [{ op: 'move', path: '/a' }]), /not supported/);
  });

  it('renders an overlay: patches on targets named by pattern, the namespace and the image', () => {
    const [deployment] = kustomize(
      overlay(
        'good',
        `namespace: shop
images:
  - { name: registry.example.com/web, newTag: '2.0' }
patches:
  - target: { kind: Deploy.*, name: web|api }
    patch: |-
      - { op: replace, path: /spec/replicas, value: 3 }
`,
      ),
    );
    assert.equal(deployment.metadata.namespace, 'shop');
    assert.equal((deployment as unknown as Deployment).spec!.replicas, 3);
    assert.equal(
      (deployment as unknown as Deployment).spec!.template.spec!.containers[0].image,
      'registry.example.com/web:2.0',
    );
  });

  it('renders a broken overlay that the schema check then refuses', () => {
    const [deployment] = kustomize(
      overlay(
        'broken',
        `patches:
  - target: { kind: Deployment, name: web }
    patch: |-
      - { op: replace, path: /spec/replicas, value: two }
`,
      ),
    );
    assert.throws(() => new Deployment(deployment as never).validate(), /replicas must be integer/);
  });

  it('refuses what it does not implement and a patch that selects nothing, rather than ignoring them', () => {
    assert.throws(() => kustomize(overlay('labels', 'commonLabels: { team: a }\n')), /commonLabels is not supported/);
    assert.throws(
      () => kustomize(overlay('strategic', 'patches:\n  - patch: |-\n      kind: Deployment\n')),
      /only JSON 6902 patches/,
    );
    assert.throws(
      () => kustomize(overlay('path', 'patches:\n  - path: patch.yaml\n')),
      /patches\[\]\.path is not supported/,
    );
    assert.throws(
      () =>
        kustomize(
          overlay('nothing', 'patches:\n  - target: { kind: Service }\n    patch: "- { op: remove, path: /spec }"\n'),
        ),
      /selects nothing/,
    );
  });
});
