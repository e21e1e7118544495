import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The faces a document draws with: Noto Sans Hebrew (SIL OFL 1.1), from `@fontsource/noto-sans-hebrew`. */
export type FaceName = 'hebrew' | 'hebrew-bold' | 'latin' | 'latin-bold';

export type PdfFonts = Record<FaceName, Buffer>;

// Fontsource ships the family cut into script subsets; WOFF (zlib) is a format fontkit, pdfkit's font reader, reads.
const FACE_FILES: Record<FaceName, string> = {
  hebrew: 'noto-sans-hebrew-hebrew-400-normal.woff',
  'hebrew-bold': 'noto-sans-hebrew-hebrew-700-normal.woff',
  latin: 'noto-sans-hebrew-latin-400-normal.woff',
  'latin-bold': 'noto-sans-hebrew-latin-700-normal.woff',
};

let loaded: PdfFonts | null = null;

/** The font files, read once per process: every document embeds the subsets of them it uses. */
export function pdfFonts(): PdfFonts {
  if (loaded) return loaded;
  const folder = join(dirname(require.resolve('@fontsource/noto-sans-hebrew/package.json')), 'files');
  const fonts = {} as PdfFonts;
  for (const [face, file] of Object.entries(FACE_FILES) as Array<[FaceName, string]>) {
    fonts[face] = readFileSync(join(folder, file));
  }
  loaded = fonts;
  return fonts;
}
