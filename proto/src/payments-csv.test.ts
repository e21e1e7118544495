import { describe, expect, it } from 'vitest';
import { CSV_FORMULA_START_CHARACTERS, csvCellNeedsFormulaGuard } from './payments-csv';

describe('the CSV formula guard (OWASP, CSV Injection)', () => {
  it('guards the classic formula starts', () => {
    for (const cell of ['=1+1', '+3', '-2', '@SUM(A1)', '\tTabbed', '\rreturn', '\nline'])
      expect(csvCellNeedsFormulaGuard(cell), JSON.stringify(cell)).toBe(true);
  });

  it('guards leading whitespace and separators, which an import may drop or split on', () => {
    for (const cell of [' =1+1', '  -2', ';=1+1', '\u00a0=1', '\u2003@x', '\u3000+1', '\u000b=1', '\u2028=1'])
      expect(csvCellNeedsFormulaGuard(cell), JSON.stringify(cell)).toBe(true);
  });

  it('guards full-width, small and other look-alikes of the dangerous characters', () => {
    for (const cell of ['＝1+1', '＋1', '－1', '＠SUM(A1)', '；=1', '﹦1+1', '﹢1', '﹣1', '﹫x', '﹔=1', '−1'])
      expect(csvCellNeedsFormulaGuard(cell), JSON.stringify(cell)).toBe(true);
  });

  it('guards invisible format characters in front of anything', () => {
    for (const cell of ['\u200b=1+1', '\u200e=1', '\u202e=1', '\u2066=1', '\ufeff=1', '\u2060=1'])
      expect(csvCellNeedsFormulaGuard(cell), JSON.stringify(cell)).toBe(true);
  });

  it('leaves ordinary text alone, including dangerous characters after the first', () => {
    for (const cell of ['', 'dana@example.com', 'העברה בנקאית', 'a=1', '12.50', "O'Brien", '(1)', '#1', '"quoted"'])
      expect(csvCellNeedsFormulaGuard(cell), JSON.stringify(cell)).toBe(false);
  });

  it('is made of single UTF-16 units, so that the first unit and the first character agree', () => {
    for (const character of CSV_FORMULA_START_CHARACTERS) expect(character).toHaveLength(1);
    expect(new Set(CSV_FORMULA_START_CHARACTERS).size).toBe(CSV_FORMULA_START_CHARACTERS.length);
  });
});
