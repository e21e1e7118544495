import {
  idempotentRequestOf,
  isSandboxTestCard,
  offSessionPayment,
  offSessionPaymentRequestOf,
  setupSessionRequestOf,
} from './saved-card-wire';

/** The create-and-confirm form as the `stripe` SDK writes our adapter's off-session charge. */
const CHARGE: Readonly<Record<string, string>> = Object.freeze({
  amount: '1250',
  currency: 'usd',
  customer: 'cus_test_1',
  payment_method: 'pm_test_1',
  off_session: 'true',
  confirm: 'true',
  description: 'Renewal',
  'metadata[subscriptionId]': 'sub-1',
});

describe("the sandbox card's saved cards in Stripe's wire shape", () => {
  it('reads a setup session create: the customer, the reference, the metadata, the return addresses', () => {
    const form = {
      mode: 'setup',
      customer: 'cus_test_1',
      currency: 'USD',
      client_reference_id: 'user-1',
      'metadata[setupId]': 'setup-1',
      'setup_intent_data[metadata][setupId]': 'setup-1',
      success_url: 'https://kupa.example/profile?card=saved',
      cancel_url: 'https://kupa.example/profile',
    };
    expect(setupSessionRequestOf(form)).toEqual({
      customer: 'cus_test_1',
      currency: 'usd',
      client_reference_id: 'user-1',
      metadata: { setupId: 'setup-1' },
      success_url: 'https://kupa.example/profile?card=saved',
      cancel_url: 'https://kupa.example/profile',
    });
    expect(setupSessionRequestOf({ ...form, customer: '' })).toEqual(expect.any(String));
    expect(setupSessionRequestOf({ ...form, success_url: 'javascript:alert(1)' })).toEqual(expect.any(String));
    expect(setupSessionRequestOf({ ...form, mode: 'payment' })).toBe('mode must be setup');
  });

  it('makes only off-session payments confirmed at once, of a positive whole amount', () => {
    expect(offSessionPaymentRequestOf(CHARGE)).toMatchObject({ amount: 1250, metadata: { subscriptionId: 'sub-1' } });
    for (const amount of ['0', '-1', '12.5', 'x'])
      expect(offSessionPaymentRequestOf({ ...CHARGE, amount })).toEqual(expect.any(String));
    expect(offSessionPaymentRequestOf({ ...CHARGE, off_session: 'false' })).toEqual(expect.any(String));
    expect(offSessionPaymentRequestOf({ ...CHARGE, confirm: 'false' })).toEqual(expect.any(String));
  });

  it('ends a charge as the test card says: paid, a 402 decline for funds, a 402 that wants the holder', () => {
    const request = offSessionPaymentRequestOf(CHARGE);
    if (typeof request === 'string') throw new Error(request);
    const paid = offSessionPayment('pi_1', request, 'pays', 1);
    expect(paid.answer.status).toBe(200);
    expect(paid.intent).toMatchObject({ status: 'succeeded', amount: 1250, amount_received: 1250 });

    const poor = offSessionPayment('pi_2', request, 'insufficient-funds', 1);
    expect(poor.answer).toMatchObject({
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          payment_intent: { id: 'pi_2', status: 'requires_payment_method', amount_received: 0 },
        },
      },
    });

    const strict = offSessionPayment('pi_3', request, 'authentication', 1);
    expect(strict.answer).toMatchObject({
      status: 402,
      body: { error: { type: 'card_error', code: 'authentication_required', payment_intent: { id: 'pi_3' } } },
    });
  });

  it('tells requests apart for idempotency by path and parameters, not by their order', () => {
    const swapped = Object.fromEntries(Object.entries(CHARGE).reverse());
    expect(idempotentRequestOf('/v1/payment_intents', swapped)).toBe(
      idempotentRequestOf('/v1/payment_intents', CHARGE),
    );
    expect(idempotentRequestOf('/v1/payment_intents', { ...CHARGE, amount: '1251' })).not.toBe(
      idempotentRequestOf('/v1/payment_intents', CHARGE),
    );
    expect(idempotentRequestOf('/v1/customers', CHARGE)).not.toBe(idempotentRequestOf('/v1/payment_intents', CHARGE));
  });

  it('knows its three test cards and nothing else', () => {
    expect(['pays', 'insufficient-funds', 'authentication'].every(isSandboxTestCard)).toBe(true);
    expect(['visa', 'toString', '', null].some(isSandboxTestCard)).toBe(false);
  });
});
