import { describe, expect, it } from 'vitest';
import { en } from './en';
import { he } from './he';
import { createI18nProvider } from './i18n-provider';
import { createTranslate } from './text';

describe('the catalogue lookup the sign-in screen uses without react-admin', () => {
  it('answers what react-admin answers for the same key, with placeholders filled, in both languages', () => {
    for (const [lang, messages] of [
      ['he', he],
      ['en', en],
    ] as const) {
      const translate = createTranslate(messages);
      const provider = createI18nProvider(lang);
      for (const key of ['kupa.login.title', 'kupa.login.otp_hint', 'kupa.two_factor.scan', 'ra.page.loading']) {
        expect(translate(key)).toBe(provider.translate(key));
      }
      expect(translate('kupa.user_menu.named', { name: 'Noa' })).toBe(
        provider.translate('kupa.user_menu.named', { name: 'Noa' }),
      );
      expect(translate('kupa.user_menu.named', { name: 'Noa' })).toContain('Noa');
    }
  });

  it('answers a missing key, or a key naming a group of texts, with the key itself', () => {
    const translate = createTranslate(en);
    expect(translate('kupa.login.nothing_here')).toBe('kupa.login.nothing_here');
    expect(translate('kupa.login')).toBe('kupa.login');
  });
});
