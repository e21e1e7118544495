/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The proto package's published entry is a CommonJS build; the browser bundle reads its TypeScript sources instead,
// so a rule changed in proto is picked up without rebuilding it first.
const protoSource = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));

/**
 * Most visits start signed out, on the sign-in page, whose chunk the router would only request once the entry has
 * run. Listing it and the chunks it imports as module preloads in index.html lets the browser fetch them alongside
 * the entry (docs/adr/0045-sign-in-page-loads-light.md). A signed-in screen shares all but a few KiB of them.
 */
function preloadSignInPage(): Plugin {
  const signInPage = fileURLToPath(new URL('./src/features/auth/login/login-page.tsx', import.meta.url));
  return {
    name: 'kupa:preload-sign-in-page',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return [];
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const page = chunks.find((output) => output.moduleIds.includes(signInPage));
        if (!page) throw new Error('The build has no chunk for the sign-in page');
        const byFile = new Map(chunks.map((output) => [output.fileName, output]));
        const alreadyLoaded = new Set<string>();
        const collect = (fileName: string, into: Set<string>) => {
          if (into.has(fileName)) return;
          into.add(fileName);
          for (const imported of byFile.get(fileName)?.imports ?? []) collect(imported, into);
        };
        collect(entry.fileName, alreadyLoaded);
        const needed = new Set<string>();
        collect(page.fileName, needed);
        return [...needed]
          .filter((fileName) => !alreadyLoaded.has(fileName))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

const entryModule = fileURLToPath(new URL('./src/main.tsx', import.meta.url));
const signInPageModule = fileURLToPath(new URL('./src/features/auth/login/login-page.tsx', import.meta.url));

interface ModuleGraph {
  getModuleInfo: (id: string) => { importedIds: readonly string[] } | null;
}

/**
 * Everything the entry and the sign-in page import statically, found once per build. Left to itself the bundler
 * splits this set into about twenty chunks shared with the lazy screens, and a phone on a slow network pays a round
 * trip for each (six connections at a time over HTTP/1.1); as one chunk it arrives in one request
 * (docs/adr/0048-first-screen-in-one-chunk.md). Lazy screens keep their own chunks and import what they share from it.
 */
function firstScreenChunk(): (id: string, meta: ModuleGraph) => string | null {
  let firstScreen: Set<string> | null = null;
  return (id, meta) => {
    if (!firstScreen) {
      const found = new Set<string>();
      const pending = [entryModule, signInPageModule];
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (found.has(next)) continue;
        found.add(next);
        pending.push(...(meta.getModuleInfo(next)?.importedIds ?? []));
      }
      firstScreen = found;
    }
    return firstScreen.has(id) ? 'first-screen' : null;
  };
}

export default defineConfig({
  base: '/',
  plugins: [react(), preloadSignInPage()],
  resolve: {
    alias: { '@kupa/proto': protoSource },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Read by scripts/bundle-budget.mjs to find what the first screen loads.
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: firstScreenChunk(), debugName: 'first-screen' }] } },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: true },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // CI machines have two cores; rendering react-admin and MUI screens under jsdom can take seconds there.
    testTimeout: 20_000,
    restoreMocks: true,
  },
});
