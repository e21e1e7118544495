import { ApiError } from '../../../platform/http';
import { assertDepositAmountInRange } from './deposit-limits';

describe('the limits of every top-up (ADR 0082)', () => {
  const limits = { cashierDepositMinMinor: 500, cashierDepositMaxMinor: 500_000 };

  it('takes the smallest and the largest amount, and anything between', () => {
    for (const amountMinor of [500, 4_000, 500_000])
      expect(() => assertDepositAmountInRange(limits, amountMinor)).not.toThrow();
  });

  it('refuses a cent below or above, naming both limits in dollars', () => {
    for (const amountMinor of [499, 500_001]) {
      let refusal: unknown;
      try {
        assertDepositAmountInRange(limits, amountMinor);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ApiError);
      expect(refusal).toMatchObject({
        code: 'error.deposit.amount.out.of.range',
        details: { minAmount: 5, maxAmount: 5000 },
      });
    }
  });
});
