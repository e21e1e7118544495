import {
  type CheckoutSessionWire,
  checkoutSessionEvent,
  checkoutSessionRequestOf,
  expiredCheckoutSession,
  paidCheckoutSession,
} from './checkout-session';

/** The create call's form as the `stripe` SDK writes our adapter's request. */
const FORM: Readonly<Record<string, string>> = Object.freeze({
  mode: 'payment',
  client_reference_id: '42',
  customer_email: 'dana@example.com',
  'line_items[0][quantity]': '1',
  'line_items[0][price_data][currency]': 'usd',
  'line_items[0][price_data][unit_amount]': '2375',
  'line_items[0][price_data][product_data][name]': 'Sport Two Months',
  'metadata[paymentId]': '42',
  success_url: 'https://kupa.example/paymentSuccess?paymentId=42',
  cancel_url: 'https://kupa.example/paymentFailed?paymentId=42',
});

function openSession(): CheckoutSessionWire {
  const request = checkoutSessionRequestOf(FORM);
  if (typeof request === 'string') throw new Error(request);
  const { productName: _productName, ...asked } = request;
  return {
    ...asked,
    id: 'cs_test_1',
    object: 'checkout.session',
    url: 'https://kupa.example/checkout',
    status: 'open',
    payment_status: 'unpaid',
    payment_intent: null,
    created: 1,
    livemode: false,
  };
}

describe('a sandbox checkout session', () => {
  it('reads the SDK form of one priced line: the amount in cents, the reference, the product, the addresses', () => {
    // Given the form our adapter's create call sends; When it is read; Then the session asks what the form asked.
    expect(checkoutSessionRequestOf(FORM)).toEqual({
      mode: 'payment',
      amount_total: 2375,
      currency: 'usd',
      client_reference_id: '42',
      customer_email: 'dana@example.com',
      metadata: { paymentId: '42' },
      success_url: 'https://kupa.example/paymentSuccess?paymentId=42',
      cancel_url: 'https://kupa.example/paymentFailed?paymentId=42',
      productName: 'Sport Two Months',
    });
    // A quantity multiplies the unit amount, as Stripe's amount_total does.
    expect(checkoutSessionRequestOf({ ...FORM, 'line_items[0][quantity]': '3' })).toMatchObject({ amount_total: 7125 });
  });

  it('refuses what Stripe would refuse: another mode, no or a non-positive amount, no return addresses', () => {
    expect(checkoutSessionRequestOf({ ...FORM, mode: 'subscription' })).toBe('mode must be payment');
    for (const amount of ['0', '-5', '12.5', 'many', ''])
      expect(checkoutSessionRequestOf({ ...FORM, 'line_items[0][price_data][unit_amount]': amount })).toEqual(
        expect.any(String),
      );
    expect(checkoutSessionRequestOf({ ...FORM, 'line_items[0][quantity]': '0' })).toEqual(expect.any(String));
    expect(checkoutSessionRequestOf({ ...FORM, success_url: '' })).toEqual(expect.any(String));
    expect(checkoutSessionRequestOf({ ...FORM, cancel_url: 'javascript:alert(1)' })).toEqual(expect.any(String));
  });

  it('is paid once: Pay completes an open session with its payment, and leaves a closed one as it is', () => {
    // Given an open session; When it is paid; Then it is complete and paid, with the payment that took the money.
    const paid = paidCheckoutSession(openSession(), 'pi_test_1');
    expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid', payment_intent: 'pi_test_1' });
    // When it is paid again, Then nothing changes: not even the payment.
    expect(paidCheckoutSession(paid, 'pi_test_2')).toBe(paid);
    // An expired session is never paid.
    const expired = expiredCheckoutSession(openSession()) as CheckoutSessionWire;
    expect(paidCheckoutSession(expired, 'pi_test_3')).toMatchObject({ status: 'expired', payment_status: 'unpaid' });
  });

  it('expires only an open session, as Stripe answers the expire call', () => {
    expect(expiredCheckoutSession(openSession())).toMatchObject({ status: 'expired' });
    expect(expiredCheckoutSession(paidCheckoutSession(openSession(), 'pi_test_1'))).toEqual(
      expect.stringContaining('Only Checkout Sessions with a status in ["open"]'),
    );
  });

  it("writes an event in Stripe's shape: its id and type, and the session as it now is", () => {
    const paid = paidCheckoutSession(openSession(), 'pi_test_1');
    const event = JSON.parse(checkoutSessionEvent('evt_1', 'checkout.session.completed', paid, 1_700_000_000));
    expect(event).toMatchObject({
      id: 'evt_1',
      object: 'event',
      type: 'checkout.session.completed',
      created: 1_700_000_000,
      livemode: false,
      data: { object: { id: 'cs_test_1', object: 'checkout.session', payment_status: 'paid' } },
    });
  });
});
