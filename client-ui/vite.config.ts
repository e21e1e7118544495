/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { brandIcon } from '../scripts/vite-brand-icon.mts';

// The proto package's published entry is a CommonJS build; the browser bundle reads its TypeScript sources instead,
// so a rule changed in proto is picked up without rebuilding it first.
const protoSource = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));

const entryModule = fileURLToPath(new URL('./src/main.tsx', import.meta.url));
const signInPageModule = fileURLToPath(new URL('./src/features/auth/login/login-page.tsx', import.meta.url));

interface ModuleGraph {
  getModuleInfo: (id: string) => { importedIds: readonly string[] } | null;
}

/**
 * Everything the entry and the sign-in page import statically, found once per build. Most visits start signed out,
 * on the sign-in page, which the router imports lazily; in this chunk it arrives with the entry, and Vite preloads the
 * chunk from index.html. Left to itself the bundler splits this set into about twenty chunks shared with the lazy
 * screens, and a phone on a slow network pays a round trip for each (six connections at a time over HTTP/1.1); as
 * one chunk it arrives in one request (docs/adr/0048-first-screen-in-one-chunk.md). Lazy screens keep their own
 * chunks and import what they share from it.
 */
function firstScreenChunk(): (id: string, meta: ModuleGraph) => string | null {
  let firstScreen: Set<string> | null = null;
  return (id, meta) => {
    if (!firstScreen) {
      if (!meta.getModuleInfo(signInPageModule))
        throw new Error(`The build has no sign-in page at ${signInPageModule}`);
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
  plugins: [react(), brandIcon()],
  resolve: {
    // The package's entry, and a module of it by name (`@kupa/proto/receipt-lines`) for words kept out of the index.
    alias: [
      { find: /^@kupa\/proto$/, replacement: protoSource },
      { find: /^@kupa\/proto\/(.+)$/, replacement: protoSource.replace(/index\.ts$/, '$1.ts') },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Read by scripts/bundle-budget.mjs to find what the first screen loads.
    manifest: true,
    // Vite's 500 kB rule weighs one minified chunk; what a visitor waits for is the gzip of what the first screen
    // loads, which scripts/bundle-budget.mjs holds to its budget and fails the build over (ADR 0048). This only
    // catches a chunk grown far past anything the budget allows.
    chunkSizeWarningLimit: 1024,
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
    // Vitest's default leaves one core free, which on CI's two cores is one worker for the whole suite: two workers took
    // the portal's files from 245 s to 148 s there (ADR 0095). Larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One module graph per worker, not per file: each file re-imported React, MUI and the app's modules, the largest
    // share of the suite's time. The setup file resets every store, storage and the language before each test, and no
    // file mocks a module for all its tests (docs/adr/0142-ui-tests-share-a-module-graph-per-worker.md).
    isolate: false,
    restoreMocks: true,
  },
});
