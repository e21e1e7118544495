import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { brandIcon } from '../scripts/vite-brand-icon.mts';
import { defineConfig } from 'vitest/config';

// The proto package publishes a CommonJS build as its main entry; the console compiles the TypeScript sources
// directly instead, so that Vite tree-shakes them as ES modules and no proto build is needed to run the UI.
const protoSource = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));

export default defineConfig({
  base: '/admin/',
  plugins: [react(), brandIcon()],
  resolve: {
    // The package's entry, and a module of it by name (`@kupa/proto/receipt-lines`) for words kept out of the index.
    alias: [
      { find: /^@kupa\/proto$/, replacement: protoSource },
      { find: /^@kupa\/proto\/(.+)$/, replacement: protoSource.replace(/index\.ts$/, '$1.ts') },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Read by scripts/bundle-budget.mjs to find what the first screen loads.
    manifest: true,
    // Vite's 500 kB rule weighs one minified chunk; what a visitor waits for is the gzip of what the first screen
    // loads, which scripts/bundle-budget.mjs holds to its budget and fails the build over (ADR 0048). This only
    // catches a chunk grown far past anything the budget allows.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    port: 5174,
    proxy: {
      '/api': 'http://localhost:3000',
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // CI machines have two cores; rendering react-admin and MUI screens under jsdom can take seconds there.
    testTimeout: 20_000,
    // Vitest's default leaves one core free, which on CI's two cores is one worker for the whole suite: two workers took
    // the portal's files from 245 s to 148 s there (ADR 0095). Larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One module graph per worker, not per file: each file re-imported React, MUI and the app's modules, the largest
    // share of the suite's time. The setup file clears the session, both storages, stubbed globals, mocks and fake
    // timers after each test, and no file mocks a module for all its tests
    // (docs/adr/0142-ui-tests-share-a-module-graph-per-worker.md).
    isolate: false,
  },
});
