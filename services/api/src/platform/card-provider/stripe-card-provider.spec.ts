import type { CardCheckoutState } from './card-provider.port';
import { cardStatusOf } from './card-provider.port';
import { stripeConnectionOf } from './stripe-card-provider';

describe('the Stripe adapter', () => {
  it("turns STRIPE_API_BASE into the SDK's host, port and protocol", () => {
    expect(stripeConnectionOf(null)).toEqual({});
    expect(stripeConnectionOf('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(stripeConnectionOf('https://stripe.internal.example/')).toEqual({
      host: 'stripe.internal.example',
      port: 443,
      protocol: 'https',
    });
    expect(stripeConnectionOf('http://fake-stripe')).toEqual({ host: 'fake-stripe', port: 80, protocol: 'http' });
    // A base with a path (the sandbox card under our own API) keeps it: the SDK alone would call `/v1/…` at the root.
    const sandbox = stripeConnectionOf('http://127.0.0.1:3000/api/sandbox/card');
    expect(sandbox).toMatchObject({ host: '127.0.0.1', port: 3000, protocol: 'http' });
    expect(sandbox.httpClient).toBeDefined();
  });

  it("reads where a checkout stands from the session as Stripe tells it now, whatever the event's type", () => {
    const session = (status: string, paymentStatus: string): CardCheckoutState => ({
      checkoutSessionId: 'cs_1',
      paymentId: 7,
      status,
      paymentStatus,
      amountTotalMinor: 2500,
      currency: 'usd',
      providerPaymentId: 'pi_1',
    });
    // Paid is paid, even when the event that made us ask is a stale failure.
    expect(cardStatusOf(session('complete', 'paid'), 'checkout.session.async_payment_failed')).toBe('paid');
    expect(cardStatusOf(session('complete', 'no_payment_required'), 'checkout.session.completed')).toBe(
      'no_payment_required',
    );
    expect(cardStatusOf(session('complete', 'unpaid'), 'checkout.session.async_payment_failed')).toBe('failed');
    expect(cardStatusOf(session('expired', 'unpaid'), 'checkout.session.expired')).toBe('expired');
    expect(cardStatusOf(session('complete', 'unpaid'), 'checkout.session.completed')).toBe('unpaid');
    expect(cardStatusOf(session('open', 'unpaid'), 'checkout.session.async_payment_succeeded')).toBe('unpaid');
  });
});
