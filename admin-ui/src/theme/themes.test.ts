import { BRAND } from '@kupa/proto';
import { createTheme } from '@mui/material/styles';
import { describe, expect, it } from 'vitest';
import { createThemes } from './themes';

describe('console themes', () => {
  it("take the client app's colours, type and shapes from proto's BRAND, in both modes and directions", () => {
    for (const direction of ['rtl', 'ltr'] as const) {
      const themes = createThemes(direction);
      for (const mode of ['light', 'dark'] as const) {
        const theme = createTheme(themes[mode]);
        expect(theme.direction).toBe(direction);
        expect(theme.palette.mode).toBe(mode);
        expect(theme.palette.primary.main).toBe(BRAND.colors[mode].primary);
        expect(theme.palette.background.default).toBe(BRAND.colors[mode].background);
        expect(theme.typography.fontFamily).toBe(BRAND.fontFamily);
        expect(theme.typography.button.textTransform).toBe('none');
        expect(theme.shape.borderRadius).toBe(BRAND.borderRadiusPx);
      }
    }
  });

  it('paints the app bar in the brand colour with readable text', () => {
    const theme = createTheme(createThemes('rtl').light);
    expect(theme.palette.secondary.main).toBe(BRAND.colors.light.primary);
    expect(theme.palette.secondary.contrastText).toBe('#fff');
  });
});
