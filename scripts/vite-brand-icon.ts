import type { Plugin } from 'vite';
import { brandIconSvg } from '../proto/src/brand';

/** The icon's file name at the root of each UI's build (under its `base`). */
const ICON_FILE = 'favicon.svg';

/**
 * A Vite plugin both UIs share: writes proto's `brandIconSvg` as `favicon.svg` at the build's root, serves it from
 * the dev server, and links it from index.html under the app's `base`. Without an icon, browsers asked for
 * `/favicon.ico` on every first visit and got nothing to show.
 */
export function brandIcon(): Plugin {
  const svg = brandIconSvg();
  let base = '/';
  return {
    name: 'kupa-brand-icon',
    configResolved(config) {
      base = config.base;
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (request.url !== `${base}${ICON_FILE}`) return next();
        response.setHeader('Content-Type', 'image/svg+xml');
        response.end(svg);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: ICON_FILE, source: svg });
    },
    transformIndexHtml() {
      return [
        { tag: 'link', attrs: { rel: 'icon', type: 'image/svg+xml', href: `${base}${ICON_FILE}` }, injectTo: 'head' },
      ];
    },
  };
}
