import { amountInputOf, parseDepositSearch } from './deposit-search';

describe('the top-up page search', () => {
  it('keeps a positive whole number of cents and a payment id, and drops anything else', () => {
    expect(parseDepositSearch({ amountMinor: 1250 })).toEqual({ amountMinor: 1250 });
    expect(parseDepositSearch({ amountMinor: '4000', paymentId: '7' })).toEqual({ amountMinor: 4000, paymentId: 7 });
    for (const amountMinor of [0, -5, 12.5, 'abc', '', '1e3', null])
      expect(parseDepositSearch({ amountMinor })).toEqual({});
  });

  it('writes cents as the amount field reads them', () => {
    expect(amountInputOf(1250)).toBe('12.50');
    expect(amountInputOf(4000)).toBe('40');
    expect(amountInputOf(1)).toBe('0.01');
  });
});
