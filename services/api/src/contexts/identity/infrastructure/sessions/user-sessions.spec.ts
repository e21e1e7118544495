import { placeLabel } from './user-sessions';

describe('where the new-device notice says a sign-in came from (ADR 0101)', () => {
  it('names the country in the reader’s language, with the address', () => {
    expect(placeLabel({ ipAddress: '5.29.1.1', countryCode: 'IL' }, 'en')).toBe('Israel (5.29.1.1)');
    expect(placeLabel({ ipAddress: '5.29.1.1', countryCode: 'IL' }, 'he')).toBe('ישראל (5.29.1.1)');
  });

  it('says the address alone when no country is known, or the mail was queued before countries', () => {
    expect(placeLabel({ ipAddress: '2001:db8::7', countryCode: null }, 'en')).toBe('the address 2001:db8::7');
    expect(placeLabel({ ipAddress: '10.0.0.1' }, 'he')).toBe('הכתובת 10.0.0.1');
    expect(placeLabel({ ipAddress: null, countryCode: null }, 'en')).toBe('the address unknown');
  });
});
