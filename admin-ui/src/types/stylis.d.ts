// The stylis package ships no type declarations; the console only needs its vendor-prefixer plugin.
declare module 'stylis' {
  import { type StylisPlugin } from '@emotion/cache';

  export const prefixer: StylisPlugin;
}
