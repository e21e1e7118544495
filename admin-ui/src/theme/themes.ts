import { type Direction } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { type ResolvedTheme } from './theme-mode';

/**
 * Both themes carry the page direction: MUI mirrors paddings, drawers and transitions from `theme.direction`, and a
 * theme without it would flip the layout back to left-to-right the moment a user picks dark mode.
 */
export function createThemes(direction: Direction): Record<ResolvedTheme, RaThemeOptions> {
  const typography = {
    fontFamily: ['"Segoe UI"', '"Arial Hebrew"', 'Arial', 'sans-serif'].join(','),
  };
  return {
    light: { ...defaultLightTheme, direction, typography: { ...defaultLightTheme.typography, ...typography } },
    dark: { ...defaultDarkTheme, direction, typography: { ...defaultDarkTheme.typography, ...typography } },
  };
}
