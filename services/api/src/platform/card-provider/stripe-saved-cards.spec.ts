import { randomUUID } from 'node:crypto';
import type { HttpAdapterHost } from '@nestjs/core';
import { FakeStripe } from '../../test-support/fake-stripe';
import type { AppConfig } from '../config';
import { CardProviderSettings } from './card-provider-settings';
import type { OffSessionChargeRequest } from './card-provider.port';
import { StripeCardProvider } from './stripe-card-provider';

/**
 * The saved-card half of the Stripe adapter (docs/adr/0085-saved-cards.md), run through the real `stripe` SDK against
 * the fake Stripe API over HTTP: customers, setup checkouts, the card a setup saved, detaching it, and off-session
 * charges under the caller's idempotency key.
 */
describe('the Stripe adapter: saved cards', () => {
  let stripe: FakeStripe;
  let provider: StripeCardProvider;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    const env = stripe.env();
    // Only the settings the adapter reads; the sandbox is off, so the server's own address is never asked for.
    const config = {
      stripeSecretKey: env.STRIPE_SECRET_KEY,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
      stripeApiBase: env.STRIPE_API_BASE,
      sandbox: false,
    } as AppConfig;
    provider = new StripeCardProvider(new CardProviderSettings(config, {} as HttpAdapterHost));
  });

  afterEach(() => {
    stripe.failing = false;
  });

  afterAll(async () => {
    await stripe.close();
  });

  /** A client with a customer and a card saved through a completed setup checkout. */
  async function savedCard(card: Parameters<FakeStripe['completeSetup']>[1] = 'visa') {
    const userUuid = randomUUID();
    const customerId = await provider.createCustomer({ userUuid, email: `${userUuid}@example.test` });
    const checkout = await provider.createSetupCheckout({
      userUuid,
      customerId,
      setupId: randomUUID(),
      successUrl: 'https://kupa.test/profile?card=saved',
      cancelUrl: 'https://kupa.test/profile',
    });
    const method = stripe.completeSetup(checkout.checkoutSessionId, card);
    return { userUuid, customerId, checkout, paymentMethodId: method.id };
  }

  const charge = (
    card: { customerId: string; paymentMethodId: string },
    idempotencyKey: string,
  ): OffSessionChargeRequest => ({
    customerId: card.customerId,
    paymentMethodId: card.paymentMethodId,
    amountMinor: 1250,
    idempotencyKey,
    description: 'Renewal',
    metadata: { subscriptionId: 'sub-1' },
  });

  it('makes one customer per client, however often it is asked', async () => {
    const userUuid = randomUUID();
    const first = await provider.createCustomer({ userUuid, email: 'a@example.test' });
    const again = await provider.createCustomer({ userUuid, email: 'a@example.test' });
    expect(again).toBe(first);
    expect(stripe.customers.get(first)?.metadata).toEqual({ userUuid });
    expect(await provider.createCustomer({ userUuid: randomUUID(), email: 'b@example.test' })).not.toBe(first);
  });

  it('opens a setup checkout for the customer and reads back the card it saved: brand, last4 and expiry only', async () => {
    const userUuid = randomUUID();
    const customerId = await provider.createCustomer({ userUuid, email: 'c@example.test' });
    const setupId = randomUUID();
    const request = {
      userUuid,
      customerId,
      setupId,
      successUrl: 'https://kupa.test/profile?card=saved',
      cancelUrl: 'https://kupa.test/profile',
    };
    const checkout = await provider.createSetupCheckout(request);
    // A retried creation of the same setup is the same checkout.
    expect(await provider.createSetupCheckout(request)).toEqual(checkout);
    const sent = stripe.requests.filter((call) => call.path === '/v1/checkout/sessions').at(-1);
    expect(sent?.form).toMatchObject({ mode: 'setup', customer: customerId, client_reference_id: userUuid });
    expect(sent?.idempotencyKey).toBe(`kupa-card-setup-${setupId}`);

    const open = await provider.retrieveSetupCheckout(checkout.checkoutSessionId);
    expect(open).toMatchObject({ status: 'open', customerId, userUuid, setupId, paymentMethod: null });

    const method = stripe.completeSetup(checkout.checkoutSessionId, 'authentication');
    expect(await provider.retrieveSetupCheckout(checkout.checkoutSessionId)).toEqual({
      checkoutSessionId: checkout.checkoutSessionId,
      userUuid,
      setupId,
      customerId,
      status: 'complete',
      createdSeconds: expect.any(Number),
      paymentMethod: {
        paymentMethodId: method.id,
        customerId,
        brand: 'mastercard',
        last4: '3184',
        expMonth: 10,
        expYear: 2032,
      },
    });
  });

  it('tells a setup checkout apart from a payment checkout, in the read-back and in the webhook', async () => {
    const payment = await provider.createCheckout({
      paymentId: 991,
      amountMinor: 1000,
      productName: 'Package',
      customerEmail: 'd@example.test',
      successUrl: 'https://kupa.test/paymentSuccess',
      cancelUrl: 'https://kupa.test/paymentFailed',
    });
    expect(await provider.retrieveSetupCheckout(payment.checkoutSessionId)).toBeNull();
    const paymentEvent = stripe.signedEvent('checkout.session.completed', payment.checkoutSessionId);
    expect(provider.verifySetupWebhook(Buffer.from(paymentEvent.payload), paymentEvent.signature)).toBeNull();

    const { checkout } = await savedCard();
    const setupEvent = stripe.signedSetupEvent('checkout.session.completed', checkout.checkoutSessionId);
    expect(provider.verifySetupWebhook(Buffer.from(setupEvent.payload), setupEvent.signature)).toEqual({
      id: setupEvent.eventId,
      type: 'checkout.session.completed',
      checkoutSessionId: checkout.checkoutSessionId,
    });
    // Another type about the same session is not a saved card.
    const expired = stripe.signedSetupEvent('checkout.session.expired', checkout.checkoutSessionId);
    expect(provider.verifySetupWebhook(Buffer.from(expired.payload), expired.signature)).toBeNull();

    const forged = stripe.signedSetupEvent('checkout.session.completed', checkout.checkoutSessionId, {
      secret: 'whsec_someone_else',
    });
    expect(() => provider.verifySetupWebhook(Buffer.from(forged.payload), forged.signature)).toThrow(
      expect.objectContaining({ code: 'error.card.webhook.signature.invalid' }),
    );
  });

  it('charges a saved card off-session once per idempotency key', async () => {
    const card = await savedCard('visa');
    const key = `kupa-renewal-${randomUUID()}`;
    const first = await provider.chargeOffSession(charge(card, key));
    expect(first).toEqual({
      outcome: 'succeeded',
      paymentIntentId: expect.stringMatching(/^pi_/),
      amountMinor: 1250,
      currency: 'usd',
    });
    // The same attempt again (a retry, a second process) is the same payment, not a second charge.
    expect(await provider.chargeOffSession(charge(card, key))).toEqual(first);
    const ofCustomer = () =>
      [...stripe.paymentIntents.values()].filter((intent) => intent.customer === card.customerId);
    expect(ofCustomer()).toHaveLength(1);
    expect(ofCustomer()[0]).toMatchObject({ amount: 1250, payment_method: card.paymentMethodId, status: 'succeeded' });
    expect(ofCustomer()[0].metadata).toEqual({ subscriptionId: 'sub-1' });
    // Another attempt has another key and is another charge.
    const second = await provider.chargeOffSession(charge(card, `kupa-renewal-${randomUUID()}`));
    expect(second.outcome).toBe('succeeded');
    expect(ofCustomer()).toHaveLength(2);
  });

  it('answers a declined card and a card that needs its holder as outcomes, not as outages', async () => {
    const declinedCard = await savedCard('declined');
    const declinedKey = `kupa-renewal-${randomUUID()}`;
    const declined = await provider.chargeOffSession(charge(declinedCard, declinedKey));
    expect(declined).toEqual({
      outcome: 'declined',
      paymentIntentId: expect.stringMatching(/^pi_/),
      code: 'card_declined',
      declineCode: 'generic_decline',
    });
    expect(await provider.chargeOffSession(charge(declinedCard, declinedKey))).toEqual(declined);

    const strongCard = await savedCard('authentication');
    expect(await provider.chargeOffSession(charge(strongCard, `kupa-renewal-${randomUUID()}`))).toEqual({
      outcome: 'requires_action',
      paymentIntentId: expect.stringMatching(/^pi_/),
      code: 'authentication_required',
    });
  });

  it('detaches a card for good: twice is fine, and a detached card can no longer be charged', async () => {
    const card = await savedCard('visa');
    await provider.detachPaymentMethod(card.paymentMethodId);
    expect(stripe.paymentMethods.get(card.paymentMethodId)?.customer).toBeNull();
    await provider.detachPaymentMethod(card.paymentMethodId);
    const charged = stripe.paymentIntents.size;
    // Stripe refuses the request (400): an answer that made no payment, not an outage to retry.
    await expect(provider.chargeOffSession(charge(card, `kupa-renewal-${randomUUID()}`))).resolves.toEqual({
      outcome: 'declined',
      paymentIntentId: null,
      code: 'resource_missing',
      declineCode: null,
    });
    expect(stripe.paymentIntents.size).toBe(charged);
  });

  it('answers error.card.provider.unavailable when Stripe does not', async () => {
    const card = await savedCard('visa');
    stripe.failing = true;
    await expect(provider.createCustomer({ userUuid: randomUUID(), email: 'e@example.test' })).rejects.toMatchObject({
      code: 'error.card.provider.unavailable',
    });
    await expect(provider.chargeOffSession(charge(card, `kupa-renewal-${randomUUID()}`))).rejects.toMatchObject({
      code: 'error.card.provider.unavailable',
    });
    await expect(provider.detachPaymentMethod(card.paymentMethodId)).rejects.toMatchObject({
      code: 'error.card.provider.unavailable',
    });
  });

  it('reads a PaymentIntent back as the charge answered it, with our metadata; unknown ones are null', async () => {
    const paid = await provider.chargeOffSession(charge(await savedCard('visa'), `kupa-renewal-${randomUUID()}`));
    const declined = await provider.chargeOffSession(
      charge(await savedCard('declined'), `kupa-renewal-${randomUUID()}`),
    );
    const processing = await provider.chargeOffSession(
      charge(await savedCard('processing'), `kupa-renewal-${randomUUID()}`),
    );
    expect(processing).toMatchObject({ outcome: 'pending' });
    const read = async (outcome: { paymentIntentId: string | null }) =>
      provider.retrievePaymentIntent(outcome.paymentIntentId as string);
    expect(await read(paid)).toMatchObject({ outcome: paid, metadata: { subscriptionId: 'sub-1' } });
    expect((await read(declined))?.outcome).toEqual(declined);
    expect((await read(processing))?.outcome).toEqual(processing);
    stripe.settlePaymentIntent(processing.paymentIntentId as string, true);
    expect((await read(processing))?.outcome).toMatchObject({
      outcome: 'succeeded',
      amountMinor: 1250,
      currency: 'usd',
    });
    expect(await provider.retrievePaymentIntent('pi_test_unknown')).toBeNull();
    stripe.failing = true;
    await expect(read(paid)).rejects.toMatchObject({ code: 'error.card.provider.unavailable' });
  });

  it('tells a PaymentIntent webhook apart from the others, and refuses a bad signature', async () => {
    const paid = await provider.chargeOffSession(charge(await savedCard('visa'), `kupa-renewal-${randomUUID()}`));
    const event = stripe.signedPaymentIntentEvent('payment_intent.succeeded', paid.paymentIntentId as string);
    expect(provider.verifyPaymentIntentWebhook(Buffer.from(event.payload), event.signature)).toEqual({
      id: event.eventId,
      type: 'payment_intent.succeeded',
      paymentIntentId: paid.paymentIntentId,
    });
    const other = stripe.signedPaymentIntentEvent('payment_intent.created', paid.paymentIntentId as string);
    expect(provider.verifyPaymentIntentWebhook(Buffer.from(other.payload), other.signature)).toBeNull();
    const forged = stripe.signedPaymentIntentEvent('payment_intent.succeeded', paid.paymentIntentId as string, {
      secret: 'whsec_someone_else',
    });
    expect(() => provider.verifyPaymentIntentWebhook(Buffer.from(forged.payload), forged.signature)).toThrow(
      expect.objectContaining({ code: 'error.card.webhook.signature.invalid' }),
    );
  });
});
