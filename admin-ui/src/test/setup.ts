import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { session } from '../providers/session';

// Lazy react-admin screens can take longer than the default second to appear on a loaded two-core machine.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  // The session keeps an in-memory copy besides localStorage, so it is cleared through its own API.
  session.clear();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // Files share a worker's module graph and globals (vite.config.ts): a test's fake clock must not reach the next file.
  vi.useRealTimers();
});
