import { describe, expect, it } from 'vitest';
import { countryName } from './session';

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
