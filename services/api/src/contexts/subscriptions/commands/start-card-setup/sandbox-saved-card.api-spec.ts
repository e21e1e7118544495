import type { CardSetupResponse, SavedCardView } from '@kupa/proto';
import Stripe from 'stripe';
import { CardProvider, CardProviderSettings, stripeConnectionOf } from '../../../../platform/card-provider';
import { SavedCards } from '../../application/saved-cards';
import { type ActiveUser, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  bought,
  createPlan,
  customerWithBalance,
  expectReadModelsToEqualReplay,
} from '../../subscriptions.fixtures';

/** The path and query of a URL at the test app's public address, for supertest. */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/*
 * Saved cards through the sandbox card (docs/adr/0087-sandbox-saved-cards.md): our routes and the real adapter (the
 * `stripe` SDK) against the sandbox's Stripe stand-in. The sandbox's routes stand in for Stripe and are left out of
 * the API document, so the specs call them through `rawHttp`; our own routes stay contract-checked.
 */
describe('Saved cards through the sandbox card (the real SDK against our own Stripe stand-in)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { KUPA_SANDBOX: '1' }, stoppedLoops: ['provisioning-jobs'] });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const as = (user: ActiveUser) => `Bearer ${user.accessToken}`;

  /** The SDK as our adapter configures it for the sandbox. */
  const sdk = () => {
    const settings = testApp.app.get(CardProviderSettings);
    return new Stripe(settings.secretKey, { ...stripeConnectionOf(settings.apiBase()), maxNetworkRetries: 0 });
  };

  const savedCardOf = async (user: ActiveUser): Promise<SavedCardView> => {
    const response = await testApp.http.get('/api/users/me/saved-card').set('Authorization', as(user));
    expect(response.status).toBe(200);
    return response.body as SavedCardView;
  };

  const openSetup = async (user: ActiveUser): Promise<string> => {
    const response = await testApp.http.post('/api/users/me/saved-card/setup').set('Authorization', as(user));
    expect(response.status).toBe(201);
    return (response.body as CardSetupResponse).url;
  };

  /** Save on the setup page, as its form posts it: the chosen test card in the body. */
  const save = (url: string, card: string, accept = 'application/json') => {
    const parsed = new URL(url);
    return testApp.rawHttp
      .post(`${parsed.pathname}/save${parsed.search}`)
      .set('Accept', accept)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(`card=${card}`);
  };

  /** A client whose card is saved through the page; answers the client and the card's ids at the provider. */
  const withSavedCard = async (card: string) => {
    const client = await createActiveUser(testApp);
    const saved = await save(await openSetup(client), card);
    expect([saved.status, saved.body.webhookStatus]).toEqual([200, 200]);
    const chargeable = await testApp.app.get(SavedCards).chargeable(client.userUuid);
    expect(chargeable).not.toBeNull();
    return { client, ...(chargeable as { customerId: string; paymentMethodId: string }) };
  };

  it('offers saving a card without Stripe, because the sandbox card stands in', async () => {
    const client = await createActiveUser(testApp);
    expect(await savedCardOf(client)).toEqual({ available: true, provider: 'SANDBOX', card: null });
  });

  it('saves a card through the test page: no card field, a signed webhook, the card shown, provider SANDBOX', async () => {
    const client = await createActiveUser(testApp);
    const url = await openSetup(client);
    expect(url).toMatch(/^http:\/\/kupa\.test\/api\/sandbox\/card\/setups\/cs_test_sandbox_\w+\?signature=/);

    // The page: marked as a test, in both languages, test cards to choose and no field for a card number.
    const page = await testApp.rawHttp.get(local(url));
    expect([page.status, page.type]).toEqual([200, 'text/html']);
    expect(page.headers['cache-control']).toContain('no-store');
    expect(page.text).toContain('זהו דף ניסוי, לא Stripe');
    expect(page.text).not.toMatch(/<input(?![^>]*type="radio")/i);
    expect([...page.text.matchAll(/name="card" value="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'pays',
      'insufficient-funds',
      'authentication',
    ]);
    const english = await testApp.rawHttp.get(`${local(url)}&lang=en`);
    expect(english.text).toContain('This is a sandbox test page, not Stripe');
    expect(english.text).toContain('A card declined for insufficient funds');
    expect(/data-action="cancel" href="([^"]+)"/.exec(english.text)?.[1]).toBe('http://kupa.test/my-profile');

    // Save, as the page's form posts it: the browser is sent on to the success address once the webhook has run.
    const saved = await save(url, 'pays', 'text/html');
    expect([saved.status, saved.headers.location]).toEqual([303, 'http://kupa.test/my-profile?card=saved']);
    expect(await savedCardOf(client)).toEqual({
      available: true,
      provider: 'SANDBOX',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, savedAt: expect.any(String) },
    });
    // The customer made for the client is the sandbox's, and recorded as such (ADR 0080: sandbox money is marked).
    const customers: Array<{ provider: string; customerId: string }> = await testApp.dataSource.query(
      `SELECT data->>'provider' AS provider, data->>'customerId' AS "customerId" FROM events
        WHERE stream_id = $1 AND type = 'CardCustomerCreated'`,
      [`saved-card-${client.userUuid}`],
    );
    expect(customers).toEqual([{ provider: 'SANDBOX', customerId: expect.stringMatching(/^cus_test_sandbox_/) }]);

    // A second press changes nothing and sends nothing; the page now says the card is saved.
    const again = await save(url, 'authentication');
    expect([again.status, again.body.error]).toEqual([409, 'error.card.sandbox.checkout.closed']);
    expect((await savedCardOf(client)).card?.last4).toBe('4242');
    expect((await testApp.rawHttp.get(local(url))).text).toContain('data-status="complete"');
  });

  it('answers the setup as our adapter reads it back, and as Stripe expands it', async () => {
    const client = await createActiveUser(testApp);
    const url = await openSetup(client);
    const sessionId = new URL(url).pathname.split('/').pop() as string;
    const open = await testApp.app.get(CardProvider).retrieveSetupCheckout(sessionId);
    expect(open).toMatchObject({ userUuid: client.userUuid, status: 'open', paymentMethod: null });
    await save(url, 'insufficient-funds');
    const session = await sdk().checkout.sessions.retrieve(sessionId, {
      expand: ['setup_intent', 'setup_intent.payment_method'],
    });
    const intent = session.setup_intent as Stripe.SetupIntent;
    expect(intent).toMatchObject({ object: 'setup_intent', status: 'succeeded' });
    expect(intent.payment_method).toMatchObject({ card: { brand: 'visa', last4: '9995' } });
  });

  it('replaces the card with a newer setup (the old one detached) and removes it (detached too)', async () => {
    const { client, paymentMethodId: first } = await withSavedCard('pays');
    const second = await save(await openSetup(client), 'authentication');
    expect(second.body.webhookStatus).toBe(200);
    expect((await savedCardOf(client)).card?.last4).toBe('3184');
    expect((await sdk().paymentMethods.retrieve(first)).customer).toBeNull();

    const { paymentMethodId: current } = (await testApp.app.get(SavedCards).chargeable(client.userUuid)) as {
      paymentMethodId: string;
    };
    const removed = await testApp.http.delete('/api/users/me/saved-card').set('Authorization', as(client));
    expect(removed.status).toBe(204);
    expect(await savedCardOf(client)).toEqual({ available: true, provider: 'SANDBOX', card: null });
    expect((await sdk().paymentMethods.retrieve(current)).customer).toBeNull();
    // Detaching again is Stripe's refusal, which our adapter takes as done.
    await expect(sdk().paymentMethods.detach(current)).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(testApp.app.get(CardProvider).detachPaymentMethod(current)).resolves.toBeUndefined();
  });

  it('charges a saved card off-session as its test card says: succeeded, declined for funds, needs authentication', async () => {
    const provider = testApp.app.get(CardProvider);
    const charge = (card: { customerId: string; paymentMethodId: string }, key: string) =>
      provider.chargeOffSession({
        ...card,
        amountMinor: 1250,
        idempotencyKey: key,
        description: 'Renewal',
        metadata: { subscriptionId: 'sub-1' },
      });

    const pays = await withSavedCard('pays');
    const paid = await charge(pays, `renewal-pays-${pays.client.userUuid}`);
    expect(paid).toEqual({
      outcome: 'succeeded',
      paymentIntentId: expect.stringMatching(/^pi_test_sandbox_/),
      amountMinor: 1250,
      currency: 'usd',
    });
    const retrieved = await sdk().paymentIntents.retrieve((paid as { paymentIntentId: string }).paymentIntentId);
    expect(retrieved).toMatchObject({ status: 'succeeded', amount: 1250, metadata: { subscriptionId: 'sub-1' } });

    const poor = await withSavedCard('insufficient-funds');
    const declined = await charge(poor, `renewal-poor-${poor.client.userUuid}`);
    expect(declined).toEqual({
      outcome: 'declined',
      paymentIntentId: expect.stringMatching(/^pi_test_sandbox_/),
      code: 'card_declined',
      declineCode: 'insufficient_funds',
    });
    const failed = await sdk().paymentIntents.retrieve(declined.paymentIntentId as string);
    expect(failed).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
    });

    const strict = await withSavedCard('authentication');
    expect(await charge(strict, `renewal-strict-${strict.client.userUuid}`)).toEqual({
      outcome: 'requires_action',
      paymentIntentId: expect.stringMatching(/^pi_test_sandbox_/),
      code: 'authentication_required',
    });

    // A card detached (removed) is not charged: Stripe refuses the request (400), an answer that made no payment.
    await testApp.http.delete('/api/users/me/saved-card').set('Authorization', as(pays.client));
    expect(await charge(pays, `renewal-removed-${pays.client.userUuid}`)).toEqual({
      outcome: 'declined',
      paymentIntentId: null,
      code: 'payment_method_unexpected_state',
      declineCode: null,
    });
  });

  it('replays a charge for the same idempotency key and refuses the key with other parameters', async () => {
    const { client, customerId, paymentMethodId } = await withSavedCard('pays');
    const key = `kupa-renewal-replay-${client.userUuid}`;
    const request = {
      customerId,
      paymentMethodId,
      amountMinor: 900,
      idempotencyKey: key,
      description: 'Renewal',
      metadata: {},
    };
    const provider = testApp.app.get(CardProvider);
    const [first, second] = await Promise.all([provider.chargeOffSession(request), provider.chargeOffSession(request)]);
    expect(second).toEqual(first);
    const third = await provider.chargeOffSession(request);
    expect(third).toEqual(first);
    const intents = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM sandbox_card_payment_intents WHERE body->>'customer' = $1`,
      [customerId],
    );
    expect(intents[0].n).toBe(1);

    // The same key for another amount: Stripe's idempotency error, which the SDK raises as such.
    await expect(
      sdk().paymentIntents.create(
        {
          amount: 901,
          currency: 'usd',
          customer: customerId,
          payment_method: paymentMethodId,
          off_session: true,
          confirm: true,
          description: 'Renewal',
        },
        { idempotencyKey: key },
      ),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);

    // The customer's create is replayed too: the same client's key is the same customer.
    const customer = (email: string) =>
      sdk().customers.create({ email, metadata: { userUuid: client.userUuid } }, { idempotencyKey: `k-${key}` });
    expect((await customer(client.email)).id).toBe((await customer(client.email)).id);
    await expect(customer('other@example.com')).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('works only through the link: a wrong signature or an unknown session is 404, a test card it has not is 400', async () => {
    const client = await createActiveUser(testApp);
    const url = new URL(await openSetup(client));
    const wrong = `${url.pathname}?signature=${'0'.repeat(64)}`;
    for (const response of [
      await testApp.rawHttp.get(wrong),
      await testApp.rawHttp.get(url.pathname),
      await testApp.rawHttp.post(`${url.pathname}/save?signature=x`).type('form').send('card=pays'),
      await testApp.rawHttp.get(`/api/sandbox/card/setups/cs_test_sandbox_unknown${url.search}`),
    ])
      expect([response.status, response.body.error]).toEqual([404, 'error.card.sandbox.checkout.not.found']);
    const odd = await save(url.toString(), 'platinum');
    expect([odd.status, odd.body.error]).toEqual([400, 'error.validation.invalid.input']);
    expect(await savedCardOf(client)).toEqual({ available: true, provider: 'SANDBOX', card: null });
    // Stripe's API needs the key: without it, nothing is served.
    const keyless = await testApp.rawHttp.get('/api/sandbox/card/v1/payment_intents/pi_test_sandbox_x');
    expect([keyless.status, keyless.body.error]).toEqual([401, 'error.card.sandbox.api.key.invalid']);
  });

  it('lets a subscription renew from the sandbox card once chosen', async () => {
    const plan = await createPlan(testApp, { price: 10, isRecurrent: true });
    const client = await customerWithBalance(testApp, 10);
    const subscription = await activate(testApp, (await bought(testApp, client, plan.id)).id);
    await save(await openSetup(client), 'pays');
    const chosen = await testApp.http
      .put(`/api/subscriptions/${subscription.id}/renewal-funding`)
      .set('Authorization', as(client))
      .send({ funding: 'CARD' });
    expect([chosen.status, chosen.body.renewalFunding]).toEqual([200, 'CARD']);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });
});
