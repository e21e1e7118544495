import { fileURLToPath } from 'node:url';
import { type Plugin, runnerImport } from 'vite';

/**
 * proto's sources are TypeScript in a CommonJS package (its build is CommonJS), which a Vite config must not import
 * statically: Vite's coming native config loader cannot load them, and says so at every build. The icon's source is
 * loaded through Vite's own module runner instead, once the config is resolved.
 */
const BRAND_SOURCE = fileURLToPath(new URL('../proto/src/brand.ts', import.meta.url));

/** The icon's file name at the root of each UI's build (under its `base`). */
const ICON_FILE = 'favicon.svg';

/**
 * A Vite plugin both UIs share: writes proto's `brandIconSvg` as `favicon.svg` at the build's root, serves it from
 * the dev server, and links it from index.html under the app's `base`. Without an icon, browsers asked for
 * `/favicon.ico` on every first visit and got nothing to show.
 */
export function brandIcon(): Plugin {
  let svg = '';
  let base = '/';
  return {
    name: 'kupa-brand-icon',
    async configResolved(config) {
      base = config.base;
      const brand = await runnerImport<typeof import('../proto/src/brand.ts')>(BRAND_SOURCE, {
        configFile: false,
        logLevel: 'silent',
      });
      svg = brand.module.brandIconSvg();
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
