import { THEME_STORAGE_KEY } from '@kupa/proto';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readThemeMode, resolveThemeMode, useThemeMode, writeThemeMode } from './theme-mode';

/** A controllable `prefers-color-scheme` media query, the way a browser reports the OS setting. */
function mockColorScheme(initiallyDark: boolean) {
  let dark = initiallyDark;
  const listeners = new Set<() => void>();
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      media: query,
      get matches() {
        return query === '(prefers-color-scheme: dark)' && dark;
      },
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    })),
  );
  return {
    setDark(next: boolean) {
      dark = next;
      listeners.forEach((listener) => listener());
    },
  };
}

function Probe() {
  const { mode, resolved } = useThemeMode();
  return <output data-testid="theme">{`${mode}:${resolved}`}</output>;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('theme mode', () => {
  it('defaults to system and follows prefers-color-scheme live', () => {
    const scheme = mockColorScheme(false);
    render(<Probe />);
    expect(screen.getByTestId('theme')).toHaveTextContent('system:light');

    act(() => scheme.setDark(true));
    expect(screen.getByTestId('theme')).toHaveTextContent('system:dark');

    act(() => scheme.setDark(false));
    expect(screen.getByTestId('theme')).toHaveTextContent('system:light');
  });

  it('stores an explicit choice under ui-theme and ignores the OS while it holds', () => {
    const scheme = mockColorScheme(true);
    render(<Probe />);

    act(() => writeThemeMode('light'));
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(screen.getByTestId('theme')).toHaveTextContent('light:light');

    act(() => scheme.setDark(false));
    act(() => writeThemeMode('dark'));
    expect(screen.getByTestId('theme')).toHaveTextContent('dark:dark');

    // Choosing "system" again removes the key, so the OS decides once more.
    act(() => writeThemeMode('system'));
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(screen.getByTestId('theme')).toHaveTextContent('system:light');
  });

  it('reads bare or JSON-quoted values and falls back to system for anything else', () => {
    const storage = (value: string | null) => ({ getItem: () => value });
    expect(readThemeMode(storage('dark'))).toBe('dark');
    expect(readThemeMode(storage('"light"'))).toBe('light');
    expect(readThemeMode(storage('purple'))).toBe('system');
    expect(readThemeMode(storage(null))).toBe('system');
    expect(resolveThemeMode('system', true)).toBe('dark');
    expect(resolveThemeMode('light', true)).toBe('light');
  });
});
