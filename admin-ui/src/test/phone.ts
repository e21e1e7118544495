import { vi } from 'vitest';

/**
 * Makes the screen a phone's for the rest of the test: narrower than the medium breakpoint, so MUI's `down('md')`,
 * which asks for a max-width, answers yes (`useIsPhone`). jsdom has no `matchMedia` of its own.
 */
export function onAPhone(): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('max-width'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}
