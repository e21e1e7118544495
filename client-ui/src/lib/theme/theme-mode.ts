import { create } from 'zustand';
import { DEFAULT_THEME_MODE, THEME_MODES, THEME_STORAGE_KEY, isOneOf, type ThemeMode } from '@kupa/proto';

function readStoredMode(): ThemeMode {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isOneOf(THEME_MODES, stored) ? stored : DEFAULT_THEME_MODE;
  } catch {
    return DEFAULT_THEME_MODE;
  }
}

interface ThemeModeStore {
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
}

/**
 * The chosen theme. It is stored as the bare word under `ui-theme` (not as a JSON envelope) because the staff
 * console reads the same key and both apps should agree on it.
 */
export const useThemeModeStore = create<ThemeModeStore>()((set) => ({
  mode: readStoredMode(),
  setMode: (mode) => {
    try {
      localStorage.setItem(THEME_STORAGE_KEY, mode);
    } catch {
      // Private browsing may refuse storage; the choice then lasts for this page only.
    }
    set({ mode });
  },
}));
