import { BRAND, type BrandMode } from '@kupa/proto';
import { type Direction } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { type ResolvedTheme } from './theme-mode';

/**
 * The console's themes: react-admin's defaults (its layout and component settings) in the colours, type and shapes of
 * proto's BRAND, which the client app's theme is built from too, so the two apps read as one product.
 *
 * Both themes carry the page direction: MUI mirrors paddings, drawers and transitions from `theme.direction`, and a
 * theme without it would flip the layout back to left-to-right the moment a user picks dark mode.
 */
export function createThemes(direction: Direction): Record<ResolvedTheme, RaThemeOptions> {
  const branded = (base: RaThemeOptions, mode: BrandMode): RaThemeOptions => {
    const colors = BRAND.colors[mode];
    return {
      ...base,
      direction,
      palette: {
        ...base.palette,
        mode,
        primary: { main: colors.primary },
        info: { main: colors.info },
        warning: { main: colors.warning },
        // react-admin paints its app bar in the secondary colour; the client app's bar is the primary one.
        secondary: { main: colors.primary },
        background: { default: colors.background, paper: colors.paper },
      },
      shape: { borderRadius: BRAND.borderRadiusPx },
      typography: { ...base.typography, fontFamily: BRAND.fontFamily, button: { ...BRAND.button } },
    };
  };
  return { light: branded(defaultLightTheme, 'light'), dark: branded(defaultDarkTheme, 'dark') };
}
