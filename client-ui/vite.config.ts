/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The proto package's published entry is a CommonJS build; the browser bundle reads its TypeScript sources instead,
// so a rule changed in proto is picked up without rebuilding it first.
const protoSource = fileURLToPath(new URL('../proto/src/index.ts', import.meta.url));

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: {
    alias: { '@kupa/proto': protoSource },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
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
