import { applyDocumentLanguage, translate } from './i18n';
import { en } from './en';
import { he } from './he';

// The dictionaries themselves, imported statically: tests are not the bundle.
const DICTIONARIES = { he, en };

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('i18n dictionaries', () => {
  it('has exactly the same keys in Hebrew and English', () => {
    const heKeys = Object.keys(DICTIONARIES.he).sort();
    const enKeys = Object.keys(DICTIONARIES.en).sort();
    expect(enKeys).toEqual(heKeys);
    expect(heKeys.length).toBeGreaterThan(50);
  });

  it('has no empty text and the same placeholders in both languages', () => {
    const problems: string[] = [];
    for (const key of Object.keys(DICTIONARIES.he) as Array<keyof typeof DICTIONARIES.he>) {
      if (DICTIONARIES.he[key].trim() === '') problems.push(`${key}: empty Hebrew text`);
      if (DICTIONARIES.en[key].trim() === '') problems.push(`${key}: empty English text`);
      if (placeholders(DICTIONARIES.en[key]).join() !== placeholders(DICTIONARIES.he[key]).join()) {
        problems.push(`${key}: placeholders differ`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps what only staff see out of the dictionaries the sign-in page carries (ADR 0048)', () => {
    const staffOnly = Object.keys(DICTIONARIES.he).filter((key) => /^(viewAs|login\.staff)\./.test(key));
    expect(staffOnly).toEqual([]);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'trial.title', { days: 3 })).toBe('Try the service free for 3 days');
    expect(translate('en', 'trial.title')).toContain('{days}');
  });

  it('loads English on demand and never answers Hebrew for it before then', async () => {
    // A fresh copy of the module, as a page starts: only Hebrew is there until English is loaded.
    vi.resetModules();
    const fresh = await import('./i18n');
    expect(fresh.isLanguageLoaded('he')).toBe(true);
    expect(fresh.isLanguageLoaded('en')).toBe(false);
    expect(fresh.translate('he', 'app.skipToContent')).toBe(he['app.skipToContent']);
    expect(() => fresh.translate('en', 'app.skipToContent')).toThrow(/before loadLanguage\('en'\)/);
    await fresh.loadLanguage('en');
    expect(fresh.isLanguageLoaded('en')).toBe(true);
    expect(fresh.translate('en', 'app.skipToContent')).toBe('Skip to content');
  });

  it('sets lang and dir on the document element', () => {
    applyDocumentLanguage('en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    applyDocumentLanguage('he');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'he');
  });
});
