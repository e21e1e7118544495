import { formatDateTime, formatDollars, formatNumber, formatPercent, formatSignedDollars } from './format';

describe('format', () => {
  it("keeps each language's formatter apart, whichever language asks first", () => {
    const at = '2026-03-04T05:06:00Z';
    const english = formatDateTime(at, 'en');
    const hebrew = formatDateTime(at, 'he');
    expect(hebrew).not.toBe(english);
    expect(english).toBe(
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
    );
    expect(hebrew).toBe(
      new Intl.DateTimeFormat('he-IL', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
    );
    // The second call answers from the kept formatter, with the same text.
    expect(formatDateTime(at, 'en')).toBe(english);
  });

  it('signs amounts only where asked, and groups counts by the language', () => {
    expect(formatDollars(-5, 'en')).toBe('-$5.00');
    expect(formatSignedDollars(5, 'en')).toBe('+$5.00');
    expect(formatSignedDollars(0, 'en')).toBe('$0.00');
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatPercent(12.5, 'en')).toBe('12.5%');
    expect(formatDateTime('not a date', 'he')).toBe('not a date');
  });
});
