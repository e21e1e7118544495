import type { ColourIntent } from './payment-states';

/**
 * The look both UIs share, as plain tokens (no UI library here): each app builds its own MUI theme from them, so the
 * client app and the staff console read as one product. Colours keep WCAG AA contrast (4.5:1) for text on the page
 * backgrounds and for white text on the light primary; `brand.test.ts` checks it.
 */
export const BRAND = Object.freeze({
  colors: Object.freeze({
    light: Object.freeze({
      primary: '#1f6f50',
      info: '#0265a8',
      warning: '#b45309',
      background: '#fafafb',
      paper: '#ffffff',
    }),
    dark: Object.freeze({
      primary: '#7cc4a4',
      info: '#6ec6f5',
      warning: '#ffa726',
      background: '#121212',
      paper: '#1e1e1e',
    }),
  }),
  /** Hebrew-friendly faces first; each platform falls back to what it has. */
  fontFamily: ['"Rubik"', '"Assistant"', '"Segoe UI"', '"Arial Hebrew"', 'Roboto', 'Arial', 'sans-serif'].join(','),
  borderRadiusPx: 10,
  /** Hebrew has no letter case, so English buttons are not upper-cased either, and both languages look alike. */
  button: Object.freeze({ textTransform: 'none', fontWeight: 600 } as const),
});

export type BrandMode = keyof typeof BRAND.colors;

/**
 * How each colour intent is drawn, named by the MUI palette both themes share: a badge's colour and a text's colour.
 * Both apps read this, so a status means the same colour on every screen.
 */
export const INTENT_COLOURS: Readonly<
  Record<ColourIntent, { badge: 'success' | 'warning' | 'error' | 'default' | 'info'; text: string }>
> = Object.freeze({
  success: { badge: 'success', text: 'success.main' },
  warning: { badge: 'warning', text: 'warning.main' },
  error: { badge: 'error', text: 'error.main' },
  neutral: { badge: 'default', text: 'text.secondary' },
  // Not green: a bonus is money in, but not money the client paid, and must not read as a deposit. Both themes set
  // info.main from BRAND, a shade per mode that small text stays readable in.
  bonus: { badge: 'info', text: 'info.main' },
});

/** WCAG 2 contrast ratio of two `#rrggbb` colours, from 1 (none) to 21 (black on white). */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a);
  return (lighter + 0.05) / (darker + 0.05);
}

function relativeLuminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255);
  const [red, green, blue] = channels.map((value) =>
    value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

/**
 * The browser-tab icon of both UIs as an SVG document: a tile in the primary colour with a "K" cut in the page
 * background's contrast, switching with the reader's light or dark scheme. Each UI's build writes it as
 * `favicon.svg`.
 */
export function brandIconSvg(): string {
  const { light, dark } = BRAND.colors;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
    `<style>.tile{fill:${light.primary}}.mark{stroke:${light.paper}}`,
    `@media (prefers-color-scheme: dark){.tile{fill:${dark.primary}}.mark{stroke:${dark.background}}}</style>`,
    '<rect class="tile" width="32" height="32" rx="7"/>',
    '<path class="mark" d="M11 8v16M21 8l-9 8 9 8" fill="none" stroke-width="3.5" stroke-linecap="round"',
    ' stroke-linejoin="round"/>',
    '</svg>',
  ].join('');
}
