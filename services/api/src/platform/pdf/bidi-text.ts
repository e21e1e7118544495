import bidiFactory from 'bidi-js';

export type TextDirection = 'rtl' | 'ltr';

/** A piece of a line in the order it is drawn, left to right, in one script. */
export interface VisualRun {
  text: string;
  hebrew: boolean;
}

const bidi = bidiFactory();

/** Marks, embeddings, overrides and isolates (LRM, RLM, ALM, LRE…RLO, LRI…PDI). */
const BIDI_CONTROLS = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/g;

/** Hebrew letters, points, presentation forms and the shekel sign: the characters the Hebrew face draws. */
const HEBREW_CHARACTER = /[\u0590-\u05FF\uFB1D-\uFB4F\u20AA]/;

export function isHebrew(character: string): boolean {
  return HEBREW_CHARACTER.test(character);
}

/**
 * The characters of one line (logical order, as typed) in the order they are drawn from left to right, by the Unicode
 * bidirectional algorithm with the paragraph's direction: runs of the other direction are reversed, brackets in
 * right-to-left runs mirrored. PDF viewers draw glyphs where they are put, so this is where "right to left" happens.
 */
export function visualOrder(line: string, direction: TextDirection): string {
  if (line.length === 0) return line;
  const levels = bidi.getEmbeddingLevels(line, direction);
  // bidi-js indexes UTF-16 code units; the receipts' texts hold no characters outside the basic plane.
  const characters = line.split('');
  const mirrored = bidi.getMirroredCharactersMap(line, levels.levels);
  for (const [index, replacement] of mirrored) characters[index] = replacement;
  for (const [start, end] of bidi.getReorderSegments(line, levels)) {
    const reversed = characters.slice(start, end + 1).reverse();
    characters.splice(start, end - start + 1, ...reversed);
  }
  // The marks and isolates steer the algorithm; the faces have no glyph for them, so they are not drawn.
  return characters.join('').replace(BIDI_CONTROLS, '');
}

/**
 * Text that keeps its left-to-right order inside a Hebrew line (an amount with its sign, an e-mail address): wrapped in
 * a left-to-right isolate, so `-$3.00` does not come out as `$3.00-`.
 */
export function leftToRight(text: string): string {
  return `\u2066${text}\u2069`;
}

/** The visual line cut where the script changes, so each run is drawn with a face that has its glyphs. */
export function visualRuns(line: string, direction: TextDirection): VisualRun[] {
  const runs: VisualRun[] = [];
  for (const character of visualOrder(line, direction)) {
    // The Hebrew face carries only Hebrew (and the shekel sign); spaces, digits, punctuation and Latin are drawn with
    // the Latin face. fontkit lays out a run of one script by itself, so each Hebrew run holds Hebrew letters only.
    const hebrew = isHebrew(character);
    const last = runs.at(-1);
    if (last && last.hebrew === hebrew) last.text += character;
    else runs.push({ text: character, hebrew });
  }
  return runs;
}
