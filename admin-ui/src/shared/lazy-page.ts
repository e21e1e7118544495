import { type ComponentType, lazy, type LazyExoticComponent } from 'react';

/**
 * A page of the console that loads with its own script the first time it is opened, not with the console's first
 * one (docs/adr/0040-console-loads-pages-on-demand.md). react-admin's layout shows its loading indicator meanwhile.
 * `load` imports the page's module; `name` is the component it exports.
 */
export function lazyPage<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
): LazyExoticComponent<ComponentType<Props>> {
  return lazy(async () => ({ default: (await load())[name] }));
}
