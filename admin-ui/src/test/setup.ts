import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { session } from '../providers/session';

afterEach(() => {
  cleanup();
  // The session keeps an in-memory copy besides localStorage, so it is cleared through its own API.
  session.clear();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
