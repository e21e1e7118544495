import { describe, expect, it } from 'vitest';
import {
  isPaymentKeywordBounded,
  isPaymentNumberKeyword,
  paymentKeywordBoundText,
  paymentKeywordTooShort,
} from './payment-search';

describe('the payments keyword rule', () => {
  it('refuses fewer than three characters unless they are digits', () => {
    expect(paymentKeywordTooShort('q')).toEqual({ min: 3 });
    expect(paymentKeywordTooShort(' ab ')).toEqual({ min: 3 });
    for (const keyword of ['', '  ', 'abc', 'אבג', '4', '42']) expect(paymentKeywordTooShort(keyword)).toBeNull();
  });

  it('reads a short run of digits as a payment number, and anything longer as a substring', () => {
    expect(isPaymentNumberKeyword(' 42 ')).toBe(true);
    expect(isPaymentNumberKeyword('424')).toBe(false);
    expect(isPaymentNumberKeyword('4a')).toBe(false);
  });

  it('bounds a keyword without dates, and says so in both languages', () => {
    expect(isPaymentKeywordBounded('wire', undefined, undefined)).toBe(true);
    expect(isPaymentKeywordBounded('wire', '2026-01-01', undefined)).toBe(false);
    expect(isPaymentKeywordBounded('wire', null, '2026-01-01')).toBe(false);
    expect(isPaymentKeywordBounded('42', undefined, undefined)).toBe(false);
    expect(isPaymentKeywordBounded(' ', undefined, undefined)).toBe(false);
    expect(paymentKeywordBoundText('en')).toBe('Without dates, the search looks at the latest 25,000 payments');
    expect(paymentKeywordBoundText('he')).toContain('25,000');
  });
});
