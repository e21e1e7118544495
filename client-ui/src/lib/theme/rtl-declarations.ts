import type { StylisElement } from '@emotion/cache';
import cssjanus from 'cssjanus';

/*
 * The right-to-left rewrite of Emotion's styles, one declaration at a time. `stylis-plugin-rtl` turns every rule back
 * into text, rewrites the text with CSSJanus and parses it again; on a phone's first screen that was about a third of
 * Emotion's work (docs/benchmarks.md, 2026-11-29). Here CSSJanus sees only the few declarations it can change, and
 * nothing is parsed twice. The output is the same as `stylis-plugin-rtl`'s (rtl-declarations.test.ts compares them).
 */

const DECLARATION = 'decl';
const COMMENT = 'comm';

// What CSSJanus rewrites: `left`/`right`/`ltr`/`rtl` anywhere (properties, values, `direction`), the `e-resize`
// cursors, and, by property, corners, shadows, translations and horizontal background positions.
const SIDE_WORDS = /left|right|ltr|rtl|resize/i;
const FLIPPED_BY_PROPERTY =
  /^(?:border-radius|box-shadow|text-shadow|transform|background|background-position(?:-x)?)$/i;
// The four-value shorthands CSSJanus swaps the second and fourth values of (`margin: 1px 2px 3px 4px`).
const FOUR_VALUE_SHORTHAND = /^(?:margin|padding|border-width|border-style|.*-color)$/i;
const FOUR_VALUES = /\S\s+\S+\s+\S+\s+\S/;
const NO_FLIP = /@noflip/i;

function mayFlip(property: string, value: string): boolean {
  return (
    SIDE_WORDS.test(property) ||
    SIDE_WORDS.test(value) ||
    FLIPPED_BY_PROPERTY.test(property) ||
    (FOUR_VALUE_SHORTHAND.test(property) && FOUR_VALUES.test(value))
  );
}

/** A Stylis plugin; list it before the prefixer, so that what is prefixed is the flipped declaration. */
export function rtlDeclarations(element: StylisElement, index: number, siblings: StylisElement[]): void {
  // A declaration's `props` is its property and its `children` its value, both as text.
  if (element.type !== DECLARATION || typeof element.props !== 'string' || typeof element.children !== 'string') return;
  const property = element.props;
  const value = element.children;
  if (!mayFlip(property, value)) return;
  // As in CSSJanus, `/* @noflip */` just before a declaration keeps it as written (Material UI's ripple uses it).
  const previous = siblings[index - 1];
  if (previous?.type === COMMENT && NO_FLIP.test(previous.value)) return;
  // Inside a rule, as CSSJanus reads it in a whole style sheet: its patterns look for the `;` or `}` that follows.
  const flipped = cssjanus.transform(`a{${element.value}}`).slice(2, -1);
  if (flipped === element.value) return;
  const colon = flipped.indexOf(':');
  const flippedProperty = flipped.slice(0, colon);
  element.value = flipped;
  element.props = flippedProperty;
  element.children = flipped.slice(colon + 1, flipped.endsWith(';') ? -1 : undefined);
  // Stylis's prefixer finds the property by its length.
  element.length = flippedProperty.length;
}
