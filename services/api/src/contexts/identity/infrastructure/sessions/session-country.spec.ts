import { countryOfAddress } from './session-country';

describe('the country of a sign-in’s address (ADR 0101)', () => {
  it('names the country of an IPv4 address', () => {
    expect(countryOfAddress('5.29.1.1')).toBe('IL');
    expect(countryOfAddress('8.8.8.8')).toBe('US');
    expect(countryOfAddress('123.45.67.8')).toBe('KR');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(countryOfAddress('::ffff:5.29.1.1')).toBe('IL');
    expect(countryOfAddress('::FFFF:8.8.8.8')).toBe('US');
  });

  it('has no country for IPv6, which the data does not cover', () => {
    expect(countryOfAddress('2001:4860:4860::8888')).toBeNull();
    expect(countryOfAddress('::1')).toBeNull();
  });

  it('has no country for private, loopback and unspecified addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '172.16.0.5', '0.0.0.0', '::ffff:127.0.0.1']) {
      expect(countryOfAddress(address)).toBeNull();
    }
  });

  it('has no country for what is not an address', () => {
    for (const address of [
      null,
      undefined,
      '',
      'garbage',
      '1.2.3',
      '5.29.1.1.5',
      '999.1.1.1',
      '5.29.1.x',
      ' 5.29.1.1',
      '::ffff:999.1.1.1',
    ]) {
      expect(countryOfAddress(address)).toBeNull();
    }
  });
});
