import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { loadLanguage } from '../lib/i18n/i18n';
import { useLangStore } from '../lib/stores/lang-store';
import { useReferralStore } from '../lib/stores/referral-store';
import { useUserStore } from '../lib/stores/user-store';
import { useToastStore } from '../lib/toast/toast-store';
import { useViewAsStore } from '../lib/view-as/view-as-store';
import { registerNavigate } from '../lib/navigation';

// jsdom has no matchMedia; the app asks it for prefers-color-scheme. The stub answers "light" unless a test says otherwise.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

// Screens are lazy routes: the first test of a file compiles its screen on first import, which under parallel test
// workers can take longer than Testing Library's default one second of waiting.
configure({ asyncUtilTimeout: 5000 });

// What main.tsx does before the first render of an English visit; tests switch languages freely, so both are loaded.
beforeAll(() => loadLanguage('en'));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  useUserStore.getState().clear();
  useViewAsStore.getState().end();
  useLangStore.getState().setLang('he');
  useReferralStore.getState().clear();
  useToastStore.getState().clear();
  registerNavigate(null);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// jsdom does not implement scrolling; the router's scroll restoration calls it on every navigation.
window.scrollTo = (() => undefined) as typeof window.scrollTo;
