import { acceptedLanguage } from './request-language';

describe('the language an Accept-Language header asks for', () => {
  it('takes the preferred one of ours, regional variants included', () => {
    expect(acceptedLanguage('he', 'en')).toBe('he');
    expect(acceptedLanguage('he-IL,he;q=0.9,en-US;q=0.8,en;q=0.7', 'en')).toBe('he');
    expect(acceptedLanguage('en-GB', 'he')).toBe('en');
    expect(acceptedLanguage('fr-FR, en;q=0.5, he;q=0.9', 'en')).toBe('he');
    expect(acceptedLanguage('en;q=0.5, he;q=0.5', 'he')).toBe('en');
    expect(acceptedLanguage('iw', 'en')).toBe('he');
  });

  it('falls back when the header is missing, names none of ours, refuses them or cannot be read', () => {
    expect(acceptedLanguage(undefined, 'en')).toBe('en');
    expect(acceptedLanguage('', 'en')).toBe('en');
    expect(acceptedLanguage('fr, de;q=0.8', 'en')).toBe('en');
    expect(acceptedLanguage('*', 'he')).toBe('he');
    expect(acceptedLanguage('he;q=0', 'en')).toBe('en');
    expect(acceptedLanguage('he;q=2, en;q=abc', 'he')).toBe('he');
    expect(acceptedLanguage('he;q=2', 'en')).toBe('en');
    expect(acceptedLanguage(';;,,;q=', 'en')).toBe('en');
  });
});
