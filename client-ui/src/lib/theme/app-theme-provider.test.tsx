import { render } from '@testing-library/react';
import { useTheme, type Theme } from '@mui/material/styles';
import { BRAND } from '@kupa/proto';
import { AppThemeProvider } from './app-theme-provider';
import { useThemeModeStore } from './theme-mode';

function renderTheme(): Theme {
  let seen: Theme | null = null;
  function Probe() {
    seen = useTheme();
    return null;
  }
  render(
    <AppThemeProvider>
      <Probe />
    </AppThemeProvider>,
  );
  if (!seen) throw new Error('no theme');
  return seen;
}

describe('client app theme', () => {
  it("is built from proto's BRAND, the tokens the staff console's theme uses too", () => {
    for (const mode of ['light', 'dark'] as const) {
      useThemeModeStore.setState({ mode });
      const theme = renderTheme();
      expect(theme.palette.primary.main).toBe(BRAND.colors[mode].primary);
      expect(theme.palette.background.default).toBe(BRAND.colors[mode].background);
      expect(theme.typography.fontFamily).toBe(BRAND.fontFamily);
      expect(theme.shape.borderRadius).toBe(BRAND.borderRadiusPx);
    }
  });
});
