import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { debtMinor, depositNeededMinor } from './deposit-purchase';

const moneyMinor = fc.integer({ min: 0, max: 100_000_000 });

describe('the deposit a purchase asks for', () => {
  it('given a balance of −$10, when a $7 package is bought by deposit, then the deposit asks $17', () => {
    expect(depositNeededMinor(-1000, 700)).toBe(1700);
    expect(debtMinor(-1000)).toBe(1000);
  });

  it('given a balance of zero, when a $7 package is bought by deposit, then the deposit asks the price', () => {
    expect(depositNeededMinor(0, 700)).toBe(700);
    expect(debtMinor(0)).toBe(0);
  });

  it('given a positive balance short of the price, when the package is bought by deposit, then it asks the whole price as before', () => {
    expect(depositNeededMinor(300, 700)).toBe(700);
  });

  it('given any balance, when the deposit arrives, then the balance pays the price and stays at zero or above', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), moneyMinor, (balanceMinor, priceMinor) => {
        const afterPurchaseMinor = balanceMinor + depositNeededMinor(balanceMinor, priceMinor) - priceMinor;
        expect(afterPurchaseMinor).toBeGreaterThanOrEqual(0);
        // Never more than the price and the debt: a negative balance ends at exactly zero.
        if (balanceMinor < 0) expect(afterPurchaseMinor).toBe(0);
      }),
    );
  });
});
