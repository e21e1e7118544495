// The stylis package ships no type declarations; these cover what the client app and its tests use.
declare module 'stylis' {
  import type { StylisElement, StylisPlugin } from '@emotion/cache';

  export type Middleware = StylisPlugin;
  export const prefixer: StylisPlugin;
  export const stringify: StylisPlugin;
  export function compile(css: string): StylisElement[];
  export function middleware(plugins: StylisPlugin[]): StylisPlugin;
  export function serialize(elements: StylisElement[], callback: StylisPlugin): string;
}
