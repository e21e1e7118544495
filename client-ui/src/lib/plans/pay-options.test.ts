import { makePlan } from '../../test/render-app';
import { payOptions } from './pay-options';

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
