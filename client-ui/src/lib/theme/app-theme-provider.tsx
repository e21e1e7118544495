import { type ReactNode, useMemo } from 'react';
import { CacheProvider } from '@emotion/react';
import createCache from '@emotion/cache';
import { prefixer } from 'stylis';
import CssBaseline from '@mui/material/CssBaseline';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { BRAND } from '@kupa/proto';
import { useLangStore } from '../stores/lang-store';
import { rtlDeclarations } from './rtl-declarations';
import { useThemeModeStore } from './theme-mode';

// Emotion's cache is global to the tree, so the app swaps between two caches instead of nesting an RTL one inside
// an LTR one (mui/material-ui#28138). Passing plugins replaces Emotion's defaults, hence the explicit prefixer. The
// right-to-left rewrite goes declaration by declaration rather than through stylis-plugin-rtl (rtl-declarations.ts).
const rtlCache = createCache({ key: 'muirtl', stylisPlugins: [rtlDeclarations, prefixer] });
const ltrCache = createCache({ key: 'muiltr', stylisPlugins: [prefixer] });

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const lang = useLangStore((state) => state.lang);
  const mode = useThemeModeStore((state) => state.mode);
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const paletteMode = mode === 'system' ? (prefersDark ? 'dark' : 'light') : mode;
  const direction = lang === 'he' ? 'rtl' : 'ltr';

  const theme = useMemo(
    () =>
      // The look the staff console shares (proto's BRAND), so the two apps read as one product.
      createTheme({
        direction,
        palette: {
          mode: paletteMode,
          primary: { main: BRAND.colors[paletteMode].primary },
          info: { main: BRAND.colors[paletteMode].info },
          warning: { main: BRAND.colors[paletteMode].warning },
          background: { default: BRAND.colors[paletteMode].background, paper: BRAND.colors[paletteMode].paper },
        },
        shape: { borderRadius: BRAND.borderRadiusPx },
        typography: { fontFamily: BRAND.fontFamily, button: { ...BRAND.button } },
      }),
    [direction, paletteMode],
  );

  return (
    <CacheProvider value={direction === 'rtl' ? rtlCache : ltrCache}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}
