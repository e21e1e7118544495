import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * The part of `kubectl kustomize` that deploy/k8s uses, so that the overlays are rendered and validated where no
 * kubectl can be downloaded (ADR 0109): `resources` (files and folders holding a kustomization.yaml), `namespace`,
 * `images` and `patches` of JSON 6902 operations with a target. Any other field is refused rather than ignored, so
 * an overlay cannot use a feature this renderer would silently get wrong.
 */

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [field: string]: unknown };
  [field: string]: unknown;
}

interface PatchTarget {
  kind?: string;
  name?: string;
}
interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  images?: Array<{ name: string; newName?: string; newTag?: string; digest?: string }>;
  patches?: Array<{ target?: PatchTarget; patch?: string }>;
}

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches']);
/** Kinds the namespace transformer leaves alone (cluster-scoped), of those deploy/k8s could hold. */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'StorageClass']);

function pointer(path: string): string[] {
  if (!path.startsWith('/')) throw new Error(`JSON pointer ${path} must start with /`);
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** RFC 6902's add, remove, replace and test on a copy of the document; a missing parent or member is an error. */
export function applyJsonPatch<T>(document: T, operations: JsonPatchOperation[]): T {
  const result = structuredClone(document) as unknown;
  for (const operation of operations) {
    const tokens = pointer(operation.path);
    const last = tokens.pop()!;
    let parent = result as Record<string, unknown> | unknown[];
    for (const token of tokens) {
      const next = Array.isArray(parent) ? parent[Number(token)] : parent[token];
      if (next === null || typeof next !== 'object') throw new Error(`${operation.path}: no ${token}`);
      parent = next as Record<string, unknown> | unknown[];
    }
    const exists = Array.isArray(parent)
      ? last === '-' || (Number(last) >= 0 && Number(last) < parent.length)
      : Object.hasOwn(parent, last);
    switch (operation.op) {
      case 'add':
        if (Array.isArray(parent)) {
          if (last !== '-' && !(Number.isInteger(Number(last)) && Number(last) <= parent.length))
            throw new Error(`${operation.path}: index out of range`);
          parent.splice(last === '-' ? parent.length : Number(last), 0, operation.value);
        } else parent[last] = operation.value;
        break;
      case 'remove':
      case 'replace':
        if (!exists || last === '-') throw new Error(`${operation.op} ${operation.path}: nothing there`);
        if (Array.isArray(parent)) {
          if (operation.op === 'remove') parent.splice(Number(last), 1);
          else parent[Number(last)] = operation.value;
        } else if (operation.op === 'remove') delete parent[last];
        else parent[last] = operation.value;
        break;
      case 'test': {
        const actual = Array.isArray(parent) ? parent[Number(last)] : parent[last];
        if (JSON.stringify(actual) !== JSON.stringify(operation.value))
          throw new Error(`test ${operation.path}: ${JSON.stringify(actual)}`);
        break;
      }
      default:
        throw new Error(`JSON patch operation ${operation.op} is not supported here`);
    }
  }
  return result as T;
}

/** Kustomize's target names and kinds are regular expressions matched whole. */
function matches(pattern: string | undefined, value: string): boolean {
  return pattern === undefined || new RegExp(`^(?:${pattern})$`).test(value);
}

interface PodSpec {
  containers?: Array<{ image: string }>;
  initContainers?: Array<{ image: string }>;
}
interface Template {
  template?: { spec?: PodSpec };
}

/** The pod specs of the kinds that hold one: Deployment, StatefulSet, DaemonSet, Job (spec.template), CronJob. */
function podSpecs(object: KubernetesObject): PodSpec[] {
  const spec = object.spec as (Template & { jobTemplate?: { spec?: Template } }) | undefined;
  const pod = object.kind === 'CronJob' ? spec?.jobTemplate?.spec?.template?.spec : spec?.template?.spec;
  return pod ? [pod] : [];
}

function setImage(image: string, rule: NonNullable<Kustomization['images']>[number]): string | undefined {
  const name = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  if (name !== rule.name) return undefined;
  const tag = image.slice(name.length);
  const newName = rule.newName ?? name;
  if (rule.digest) return `${newName}@${rule.digest}`;
  return `${newName}${rule.newTag === undefined ? tag : `:${rule.newTag}`}`;
}

function readKustomization(dir: string): Kustomization {
  const file = join(dir, 'kustomization.yaml');
  const kustomization = (parse(readFileSync(file, 'utf8')) ?? {}) as Kustomization;
  for (const field of Object.keys(kustomization))
    if (!KNOWN_FIELDS.has(field)) throw new Error(`${file}: ${field} is not supported by test/deploy/kustomize.ts`);
  for (const patch of kustomization.patches ?? []) {
    for (const field of Object.keys(patch))
      if (field !== 'target' && field !== 'patch') throw new Error(`${file}: patches[].${field} is not supported`);
    for (const field of Object.keys(patch.target ?? {}))
      if (field !== 'kind' && field !== 'name') throw new Error(`${file}: patches[].target.${field} is not supported`);
  }
  return kustomization;
}

/** What `kubectl kustomize <dir>` prints, as objects (in the order of the resources, not kubectl's by kind). */
export function kustomize(dir: string): KubernetesObject[] {
  const kustomization = readKustomization(dir);
  let objects: KubernetesObject[] = (kustomization.resources ?? []).flatMap((resource) => {
    const path = join(dir, resource);
    if (!existsSync(path)) throw new Error(`${dir}: resource ${resource} does not exist`);
    if (statSync(path).isDirectory()) return kustomize(path);
    return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => {
      if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0].message}`);
      return document.toJS() as KubernetesObject;
    });
  });
  for (const { target, patch } of kustomization.patches ?? []) {
    const operations = parse(patch ?? '') as unknown;
    if (!Array.isArray(operations)) throw new Error(`${dir}: only JSON 6902 patches (a list of operations) are used`);
    const selected = objects.filter(
      (object) => matches(target?.kind, object.kind) && matches(target?.name, object.metadata.name),
    );
    if (selected.length === 0) throw new Error(`${dir}: a patch's target ${JSON.stringify(target)} selects nothing`);
    objects = objects.map((object) =>
      selected.includes(object) ? applyJsonPatch(object, operations as JsonPatchOperation[]) : object,
    );
  }
  if (kustomization.namespace !== undefined) {
    const namespace = kustomization.namespace;
    objects = objects.map((object) =>
      CLUSTER_SCOPED.has(object.kind) ? object : { ...object, metadata: { ...object.metadata, namespace } },
    );
  }
  for (const rule of kustomization.images ?? [])
    for (const object of objects)
      for (const pod of podSpecs(object))
        for (const container of [...(pod.containers ?? []), ...(pod.initContainers ?? [])]) {
          const image = setImage(container.image, rule);
          if (image !== undefined) container.image = image;
        }
  return objects;
}
