import { parseAmountInput } from './amount-input';

describe('typed amounts', () => {
  it('turns plain decimal dollars into cents', () => {
    expect(parseAmountInput(' 12.5 ')).toEqual({ ok: true, amountMinor: 1250 });
    expect(parseAmountInput('99999.99')).toEqual({ ok: true, amountMinor: 9_999_999 });
    expect(parseAmountInput('0.01')).toEqual({ ok: true, amountMinor: 1 });
  });

  it('answers each problem with its catalogue code and the parameters its message names', () => {
    expect(parseAmountInput('')).toEqual({ ok: false, issue: { error: 'error.validation.required' } });
    expect(parseAmountInput('0')).toEqual({ ok: false, issue: { error: 'error.validation.must.be.positive' } });
    // The second reads as exactly 1 once it is a number: it is checked as typed, as the API checks it.
    for (const text of ['1.234', '1.0000000000000001'])
      expect(parseAmountInput(text)).toEqual({
        ok: false,
        issue: { error: 'error.validation.max.decimal.places', params: { maxDecimalPlaces: 2 } },
      });
    expect(parseAmountInput('100000')).toEqual({
      ok: false,
      issue: { error: 'error.validation.max', params: { max: '99999.99' } },
    });
    for (const text of ['-5', '-0.01', '\u221212.50']) {
      expect(parseAmountInput(text)).toEqual({ ok: false, issue: { error: 'error.validation.must.be.positive' } });
    }
    for (const text of ['1e3', '0x10', '--5', '12,50', 'Infinity', '.5']) {
      expect(parseAmountInput(text)).toEqual({ ok: false, issue: { error: 'error.validation.invalid.input' } });
    }
  });
});
