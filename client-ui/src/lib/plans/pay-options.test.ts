import { makePlan } from '../../test/render-app';
import { payOptions, renewalPayOptions, renewalPayWith } from './pay-options';

describe('payOptions', () => {
  const plan = makePlan();

  it('offers a crypto deposit-and-buy for a short balance only where the deployment has a crypto cashier', () => {
    expect(payOptions(plan, true, { card: false, crypto: true })).toEqual(['balance', 'crypto']);
    // A real deployment without CASHIER_URL (issue 27): no crypto offered, the balance still shows what is missing.
    expect(payOptions(plan, true, { card: false, crypto: false })).toEqual(['balance']);
    expect(payOptions(plan, true, { card: true, crypto: false })).toEqual(['balance', 'card']);
    expect(payOptions(plan, false, { card: false, crypto: true })).toEqual(['balance']);
  });
});

describe('renewal pay options', () => {
  it('offers a crypto deposit-and-renew wherever the deployment has a crypto cashier, short balance or not', () => {
    expect(renewalPayOptions({ crypto: true })).toEqual(['balance', 'crypto']);
    expect(renewalPayOptions({ crypto: false })).toEqual(['balance']);
  });

  it('starts on the balance when it is enough, on crypto when it is short, and keeps what the client chose', () => {
    const both = renewalPayOptions({ crypto: true });
    expect(renewalPayWith(both, false, null)).toBe('balance');
    expect(renewalPayWith(both, true, null)).toBe('crypto');
    expect(renewalPayWith(both, false, 'crypto')).toBe('crypto');
    expect(renewalPayWith(both, true, 'balance')).toBe('balance');
    // Without a cashier crypto is never the way, even if it was picked before the answer arrived.
    expect(renewalPayWith(['balance'], true, 'crypto')).toBe('balance');
  });
});
