import { DEFAULT_THEME_MODE, isOneOf, THEME_MODES, THEME_STORAGE_KEY, type ThemeMode } from '@kupa/proto';
import { useCallback, useSyncExternalStore } from 'react';

export type ResolvedTheme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';
const MODE_CHANGED = 'kupa-theme-mode';

export function readThemeMode(storage: Pick<Storage, 'getItem'> = window.localStorage): ThemeMode {
  try {
    const raw = storage.getItem(THEME_STORAGE_KEY);
    if (raw === null) return DEFAULT_THEME_MODE;
    if (isOneOf(THEME_MODES, raw)) return raw;
    const parsed: unknown = JSON.parse(raw);
    return isOneOf(THEME_MODES, parsed) ? parsed : DEFAULT_THEME_MODE;
  } catch {
    return DEFAULT_THEME_MODE;
  }
}

/**
 * Stores the choice. "system" removes the key rather than storing a value, so a user who never chose keeps
 * following the operating system, as does one who chose "system" again.
 */
export function writeThemeMode(mode: ThemeMode): void {
  try {
    if (mode === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, mode);
  } catch {
    // Without storage the choice lasts until the next reload.
  }
  window.dispatchEvent(new Event(MODE_CHANGED));
}

export function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

export function resolveThemeMode(mode: ThemeMode, prefersDark: boolean): ResolvedTheme {
  if (mode === 'system') return prefersDark ? 'dark' : 'light';
  return mode;
}

function subscribe(onChange: () => void): () => void {
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', onChange);
  window.addEventListener(MODE_CHANGED, onChange);
  // Another tab changing the theme updates this one too.
  window.addEventListener('storage', onChange);
  return () => {
    media?.removeEventListener('change', onChange);
    window.removeEventListener(MODE_CHANGED, onChange);
    window.removeEventListener('storage', onChange);
  };
}

function snapshot(): string {
  return `${readThemeMode()}:${systemPrefersDark() ? 'dark' : 'light'}`;
}

/** The chosen mode, the theme it resolves to right now, and a setter; "system" follows the OS live. */
export function useThemeMode(): { mode: ThemeMode; resolved: ResolvedTheme; setMode: (mode: ThemeMode) => void } {
  const current = useSyncExternalStore(subscribe, snapshot);
  const [mode, system] = current.split(':') as [ThemeMode, ResolvedTheme];
  const setMode = useCallback((next: ThemeMode) => writeThemeMode(next), []);
  return { mode, resolved: resolveThemeMode(mode, system === 'dark'), setMode };
}
