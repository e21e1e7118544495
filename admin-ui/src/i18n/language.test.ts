import { describe, expect, it } from 'vitest';
import { applyDocumentLanguage, LANGUAGE_STORAGE_KEY, readLanguage, writeLanguage } from './language';

describe('language', () => {
  it('is Hebrew by default', () => {
    expect(readLanguage()).toBe('he');
  });

  it('writes the client app store format and reads it back', () => {
    writeLanguage('en');
    expect(JSON.parse(window.localStorage.getItem(LANGUAGE_STORAGE_KEY) ?? 'null')).toEqual({
      state: { lang: 'en' },
      version: 0,
    });
    expect(readLanguage()).toBe('en');
  });

  it('accepts a bare code and ignores unknown values', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    expect(readLanguage()).toBe('en');
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, '{"state":{"lang":"fr"}}');
    expect(readLanguage()).toBe('he');
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'not json');
    expect(readLanguage()).toBe('he');
  });

  it('sets lang and dir on <html>', () => {
    applyDocumentLanguage('he');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'he');
    applyDocumentLanguage('en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement).toHaveAttribute('lang', 'en');
  });
});
