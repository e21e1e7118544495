import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { brandIcon } from '../scripts/vite-brand-icon';
import { defineConfig } from 'vitest/config';

// The proto package publishes a CommonJS build as its main entry; the console compiles the TypeScript sources
// directly instead, so that Vite tree-shakes them as ES modules and no proto build is needed to run the UI.
const protoSource = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));

export default defineConfig({
  base: '/admin/',
  plugins: [react(), brandIcon()],
  resolve: {
    alias: { '@kupa/proto': protoSource },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Read by scripts/bundle-budget.mjs to find what the first screen loads.
    manifest: true,
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
  },
});
