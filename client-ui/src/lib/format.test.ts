import { keptOnOneLine } from '@kupa/proto';
import { formatDate, formatDateTime, formatDollars, formatNumber, formatPercent, formatSignedDollars } from './format';

describe('format', () => {
  it("keeps each language's formatter apart, whichever language asks first", () => {
    const at = '2026-03-04T05:06:00Z';
    const english = formatDateTime(at, 'en');
    const hebrew = formatDateTime(at, 'he');
    expect(hebrew).not.toBe(english);
    expect(english).toBe(
      keptOnOneLine(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at))),
    );
    expect(hebrew).toBe(
      keptOnOneLine(new Intl.DateTimeFormat('he-IL', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at))),
    );
    // The second call answers from the kept formatter, with the same text.
    expect(formatDateTime(at, 'en')).toBe(english);
  });

  it('gives dates and date-times that a line never breaks inside, in either language', () => {
    const at = '2026-12-29T10:30:00Z';
    for (const lang of ['he', 'en'] as const) {
      for (const text of [formatDate(at, lang), formatDateTime(at, lang)]) {
        // Day, month, year and time are still apart, by no-break spaces only: no space a line may break at.
        expect(text).toMatch(/2026/);
        expect(text).toContain('\u00a0');
        expect(text).not.toContain(' ');
      }
    }
    expect(formatDate(at, 'he')).toMatch(/^29\u00a0בדצמ׳\u00a02026$/);
  });

  it('signs amounts only where asked, and groups counts by the language', () => {
    expect(formatDollars(-5, 'en')).toBe('-$5.00');
    expect(formatSignedDollars(5, 'en')).toBe('+$5.00');
    expect(formatSignedDollars(0, 'en')).toBe('$0.00');
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatPercent(12.5, 'en')).toBe('12.5%');
    expect(formatDateTime('not a date', 'he')).toBe('not a date');
  });

  it('puts the dollar sign where the language does, with no direction marks, for a left-to-right isolate', () => {
    expect(formatDollars(1234.5, 'he')).toBe('1,234.50\u00a0$');
    expect(formatSignedDollars(-5, 'he')).toBe('-5.00\u00a0$');
    expect(formatSignedDollars(5, 'he')).toBe('+5.00\u00a0$');
    expect(formatDollars(1234.5, 'en')).toBe('$1,234.50');
    expect(formatDollars(0.1 + 0.2, 'en')).toBe('$0.30');
  });

  it("builds the first screens' formatters in tasks of their own, and the later formats use those", async () => {
    // A fresh copy of the module, so that no formatter is kept from the tests above.
    vi.resetModules();
    const fresh = await import('./format');
    const RealNumberFormat = Intl.NumberFormat;
    const RealDateTimeFormat = Intl.DateTimeFormat;
    const built: string[] = [];
    Intl.NumberFormat = function (locale?: string | string[], options?: Intl.NumberFormatOptions) {
      built.push(`number ${String(locale)}`);
      return new RealNumberFormat(locale, options);
    } as typeof Intl.NumberFormat;
    Intl.DateTimeFormat = function (locale?: string | string[], options?: Intl.DateTimeFormatOptions) {
      built.push(`date ${String(locale)}`);
      return new RealDateTimeFormat(locale, options);
    } as typeof Intl.DateTimeFormat;
    try {
      const tasks: Array<() => void> = [];
      fresh.prepareFormatters('he', (task) => tasks.push(task));
      // Nothing is built until the tasks run: the caller's own task stays short.
      expect(built).toEqual([]);
      expect(tasks.length).toBeGreaterThan(1);
      for (const task of tasks) task();
      expect(built.filter((entry) => entry === 'number he-IL')).toHaveLength(2);
      expect(built.filter((entry) => entry === 'date he-IL')).toHaveLength(2);

      const before = built.length;
      const at = '2026-03-04T05:06:00Z';
      const hebrew = fresh.formatDateTime(at, 'he');
      fresh.formatDate(at, 'he');
      fresh.formatDollars(5, 'he');
      fresh.formatSignedDollars(5, 'he');
      expect(built).toHaveLength(before);
      expect(hebrew).toBe(
        keptOnOneLine(
          new RealDateTimeFormat('he-IL', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at)),
        ),
      );
    } finally {
      Intl.NumberFormat = RealNumberFormat;
      Intl.DateTimeFormat = RealDateTimeFormat;
    }
  });
});
