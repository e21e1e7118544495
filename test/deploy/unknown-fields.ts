/**
 * The fields of an object that its Kubernetes schema does not know. The schemas leave objects open (as the API server
 * does without strict field validation), so `validate()` accepts a misspelt `imagePullPolcy`; `kubectl apply
 * --validate=strict` would refuse it. The compiled validators of kubernetes-models read every property their schema
 * defines, so validating through a proxy that records what was read tells the known fields of each object apart:
 * a field present but never read is unknown. Maps (labels, ConfigMap data) are read whole, so every key counts.
 */

type Node = Record<string, unknown> | unknown[];

interface Validating {
  validate(): void;
}

export function unknownFields(Model: new (data: never) => Validating, object: unknown): string[] {
  const instance = new Model(object as never);
  const read = new Map<string, Set<string>>();
  const proxies = new WeakMap<object, object>();

  function recording<T>(value: T, path: string): T {
    if (value === null || typeof value !== 'object') return value;
    const known = proxies.get(value);
    if (known) return known as T;
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        if (typeof key === 'string') {
          if (!read.has(path)) read.set(path, new Set());
          read.get(path)!.add(key);
          return recording(Reflect.get(target, key, receiver), `${path}/${key}`);
        }
        return Reflect.get(target, key, receiver);
      },
    });
    proxies.set(value, proxy);
    return proxy as T;
  }

  instance.validate.call(recording(instance, ''));
  const unknown: string[] = [];
  function walk(node: Node, path: string): void {
    const entries = Array.isArray(node)
      ? node.map((item, index) => [String(index), item] as const)
      : Object.entries(node);
    for (const [key, child] of entries) {
      if (!Array.isArray(node) && !read.get(path)?.has(key)) unknown.push(`${path}/${key}`);
      else if (child !== null && typeof child === 'object') walk(child as Node, `${path}/${key}`);
    }
  }
  walk(instance as unknown as Node, '');
  return unknown;
}
