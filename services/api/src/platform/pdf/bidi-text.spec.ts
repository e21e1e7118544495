import { leftToRight, visualOrder, visualRuns } from './bidi-text';

/** The Unicode bidirectional algorithm as the PDF module applies it: the order glyphs are put on the page. */
describe('visualOrder', () => {
  it('reverses a Hebrew line and keeps numbers and Latin names left to right inside it', () => {
    expect(visualOrder('חבילת Premium HD ל-12 חודשים', 'rtl')).toBe('םישדוח 12-ל Premium HD תליבח');
  });

  it('mirrors brackets around an e-mail address in a Hebrew line', () => {
    expect(visualOrder('דנה כהן (dana@example.com)', 'rtl')).toBe('(dana@example.com) ןהכ הנד');
  });

  it('keeps a signed amount whole inside a left-to-right isolate, and draws no isolate characters', () => {
    expect(visualOrder(`הנחה ${leftToRight('-$3.00')}`, 'rtl')).toBe('-$3.00 החנה');
  });

  it('leaves an English line as typed, Hebrew words in it reversed', () => {
    expect(visualOrder('Package: מנוי זהב', 'ltr')).toBe('Package: בהז יונמ');
  });

  it('cuts the visual line where the script changes, so each run gets a face with its glyphs', () => {
    expect(visualRuns('קבלה 12', 'rtl')).toEqual([
      { text: '12 ', hebrew: false },
      { text: 'הלבק', hebrew: true },
    ]);
  });
});
