import { describe, expect, it } from 'vitest';
import { countryName, signInPlace } from './session';

describe('countryName', () => {
  it('names a country in the language asked', () => {
    expect(countryName('IL', 'en')).toBe('Israel');
    expect(countryName('IL', 'he')).toBe('ישראל');
    expect(countryName('US', 'en')).toBe('United States');
  });

  it('names nothing for no code, a malformed one or one the runtime does not know', () => {
    expect(countryName(null, 'en')).toBeNull();
    expect(countryName('', 'he')).toBeNull();
    expect(countryName('il', 'en')).toBeNull();
    expect(countryName('ISR', 'en')).toBeNull();
    expect(countryName('QQ', 'en')).toBeNull();
  });
});

describe('signInPlace: where the new-device mail and notification say a sign-in came from (ADR 0101)', () => {
  it('names the country in the reader’s language, with the address', () => {
    expect(signInPlace({ ipAddress: '5.29.1.1', countryCode: 'IL' }, 'en')).toBe('Israel (5.29.1.1)');
    expect(signInPlace({ ipAddress: '5.29.1.1', countryCode: 'IL' }, 'he')).toBe('ישראל (5.29.1.1)');
  });

  it('says the address alone when no country is known, or the notice was sent before countries', () => {
    expect(signInPlace({ ipAddress: '2001:db8::7', countryCode: null }, 'en')).toBe('the address 2001:db8::7');
    expect(signInPlace({ ipAddress: '10.0.0.1' }, 'he')).toBe('הכתובת 10.0.0.1');
    expect(signInPlace({ ipAddress: null, countryCode: null }, 'en')).toBe('the address unknown');
  });
});
