import { describe, expect, it } from 'vitest';
import { BRAND, contrastRatio } from './brand';

const AA = 4.5;

describe('brand colours', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('keep text in the primary, info and warning colours readable on both page backgrounds of its mode', () => {
    for (const colors of Object.values(BRAND.colors)) {
      expect(contrastRatio(colors.primary, colors.background)).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(colors.primary, colors.paper)).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(colors.info, colors.background)).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(colors.info, colors.paper)).toBeGreaterThanOrEqual(AA);
      // MUI's own warning orange (#ed6c02) is 3.1:1 on white: an outlined warning button's label failed axe.
      expect(contrastRatio(colors.warning, colors.background)).toBeGreaterThanOrEqual(AA);
      expect(contrastRatio(colors.warning, colors.paper)).toBeGreaterThanOrEqual(AA);
    }
  });

  it('keep white text readable on the light primary (buttons, the app bar)', () => {
    expect(contrastRatio('#ffffff', BRAND.colors.light.primary)).toBeGreaterThanOrEqual(AA);
  });
});
