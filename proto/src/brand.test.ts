import { describe, expect, it } from 'vitest';
import { BRAND, brandIconSvg, contrastRatio } from './brand';

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

  it('draw the tab icon in the brand colours of both schemes, as one well-formed SVG document', () => {
    const svg = brandIconSvg();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/);
    expect(svg).toContain(`fill:${BRAND.colors.light.primary}`);
    expect(svg).toContain(`fill:${BRAND.colors.dark.primary}`);
    expect(contrastRatio(BRAND.colors.light.paper, BRAND.colors.light.primary)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(BRAND.colors.dark.background, BRAND.colors.dark.primary)).toBeGreaterThanOrEqual(3);
    // Every element that opens is closed: the browser rejects the whole icon otherwise.
    const opened = svg.match(/<(svg|style|rect|path)\b/g)?.length ?? 0;
    const closed = (svg.match(/<\/(svg|style)>/g)?.length ?? 0) + (svg.match(/\/>/g)?.length ?? 0);
    expect(closed).toBe(opened);
  });
});
