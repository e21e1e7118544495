import type { CardSetupResponse, SavedCardView, Subscription } from '@kupa/proto';
import { FakeStripe, type FakeTestCard } from '../../../../test-support/fake-stripe';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import {
  activate,
  bought,
  createPlan,
  customerWithBalance,
  expectReadModelsToEqualReplay,
  read,
} from '../../subscriptions.fixtures';

describe('Saved cards and the renewal funding choice (the real SDK against a local fake Stripe API)', () => {
  let testApp: TestApp;
  let stripe: FakeStripe;
  let admin: string;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    testApp = await startTestApp({
      env: { ...stripe.env(), PUBLIC_URL: 'https://kupa.example' },
      stoppedLoops: ['provisioning-jobs'],
    });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
    await stripe.close();
  });

  const as = (user: ActiveUser) => `Bearer ${user.accessToken}`;

  const deliver = (event: { payload: string; signature: string }) =>
    testApp.http
      .post('/api/stripe/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', event.signature)
      .send(event.payload);

  const savedCardOf = async (user: ActiveUser): Promise<SavedCardView> => {
    const response = await testApp.http.get('/api/users/me/saved-card').set('Authorization', as(user));
    expect(response.status).toBe(200);
    return response.body as SavedCardView;
  };

  /** Opens a setup checkout for the client and answers its session id. */
  const openSetup = async (user: ActiveUser): Promise<string> => {
    const response = await testApp.http.post('/api/users/me/saved-card/setup').set('Authorization', as(user));
    expect(response.status).toBe(201);
    return (response.body as CardSetupResponse).url.split('/').pop() as string;
  };

  /** The client saves `card` on the setup page and Stripe sends its webhook. */
  const saveCard = async (user: ActiveUser, card: FakeTestCard = 'visa') => {
    const sessionId = await openSetup(user);
    const method = stripe.completeSetup(sessionId, card);
    const event = stripe.signedSetupEvent('checkout.session.completed', sessionId);
    const answer = await deliver(event);
    expect(answer.status).toBe(200);
    return { sessionId, method, event };
  };

  const chooseFunding = (user: ActiveUser, subscriptionId: string, funding: string) =>
    testApp.http
      .put(`/api/subscriptions/${subscriptionId}/renewal-funding`)
      .set('Authorization', as(user))
      .send({ funding });

  it('saves a card through a setup checkout: one customer, brand, last4 and expiry shown, recorded once', async () => {
    const client = await createActiveUser(testApp);
    expect(await savedCardOf(client)).toEqual({ available: true, provider: 'STRIPE', card: null });
    const { sessionId, event } = await saveCard(client, 'visa');
    const session = stripe.setupSessions.get(sessionId);
    expect(session).toMatchObject({ mode: 'setup', client_reference_id: client.userUuid });
    expect(stripe.customers.get(session?.customer ?? '')?.metadata).toEqual({ userUuid: client.userUuid });
    expect(await savedCardOf(client)).toEqual({
      available: true,
      provider: 'STRIPE',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034, savedAt: expect.any(String) },
    });

    // The same webhook again, and the same setup under another event id, record nothing more.
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(stripe.signedSetupEvent('checkout.session.completed', sessionId))).status).toBe(200);
    const saved = await testApp.dataSource.query(
      `SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'CardSaved'`,
      [`saved-card-${client.userUuid}`],
    );
    expect(saved[0].n).toBe(1);

    // A second setup reuses the customer.
    await openSetup(client);
    const customers = [...stripe.setupSessions.values()]
      .filter((s) => s.client_reference_id === client.userUuid)
      .map((s) => s.customer);
    expect(new Set(customers).size).toBe(1);

    // Staff see the card on the client's page; another client cannot.
    const staffView = await testApp.http
      .get(`/api/users/${client.userUuid}/saved-card`)
      .set('Authorization', `Bearer ${admin}`);
    expect(staffView.body.card).toMatchObject({ brand: 'visa', last4: '4242' });
    const other = await createActiveUser(testApp);
    const peek = await testApp.http.get(`/api/users/${client.userUuid}/saved-card`).set('Authorization', as(other));
    expect(peek.status).toBe(403);
  });

  it('keeps one card: a newer setup replaces the card (detached at Stripe), an older one arriving late does not', async () => {
    const client = await createActiveUser(testApp);
    const olderSession = await openSetup(client);
    stripe.setupSessions.get(olderSession)!.created -= 60;
    const first = await saveCard(client, 'visa');
    const second = await saveCard(client, 'authentication');
    expect((await savedCardOf(client)).card).toMatchObject({ brand: 'mastercard', last4: '3184' });
    expect(stripe.paymentMethods.get(first.method.id)?.customer).toBeNull();

    // The setup opened before both completes last: its card is not kept and is detached.
    const late = stripe.completeSetup(olderSession, 'declined');
    expect((await deliver(stripe.signedSetupEvent('checkout.session.completed', olderSession))).status).toBe(200);
    expect((await savedCardOf(client)).card).toMatchObject({ last4: '3184' });
    expect(stripe.paymentMethods.get(late.id)?.customer).toBeNull();
    expect(stripe.paymentMethods.get(second.method.id)?.customer).not.toBeNull();
  });

  it('chooses how a recurrent subscription renews: refused without a card, shown on the subscription', async () => {
    const plan = await createPlan(testApp, { price: 10, isRecurrent: true });
    const client = await customerWithBalance(testApp, 10);
    const subscription = await activate(testApp, (await bought(testApp, client, plan.id)).id);
    expect(subscription.renewalFunding).toBe('BALANCE');

    const refused = await chooseFunding(client, subscription.id, 'CARD');
    expect([refused.status, refused.body.error]).toEqual([409, 'error.card.not.saved']);
    const invalid = await chooseFunding(client, subscription.id, 'CASH');
    expect(invalid.status).toBe(400);

    await saveCard(client);
    const chosen = await chooseFunding(client, subscription.id, 'BALANCE_THEN_CARD');
    expect(chosen.status).toBe(200);
    expect((chosen.body as Subscription).renewalFunding).toBe('BALANCE_THEN_CARD');
    expect((await read(testApp, subscription.id)).renewalFunding).toBe('BALANCE_THEN_CARD');

    // Another client's subscription is not found; staff do not choose for the client.
    const other = await createActiveUser(testApp);
    const foreign = await chooseFunding(other, subscription.id, 'BALANCE');
    expect([foreign.status, foreign.body.error]).toEqual([404, 'error.subscription.not.found']);
    const staff = await testApp.http
      .put(`/api/subscriptions/${subscription.id}/renewal-funding`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ funding: 'BALANCE' });
    expect(staff.status).toBe(403);
  });

  it('removes the card at any time: detached at Stripe, subscriptions back on the balance, never chargeable', async () => {
    const plan = await createPlan(testApp, { price: 10, isRecurrent: true });
    const client = await customerWithBalance(testApp, 10);
    const subscription = await activate(testApp, (await bought(testApp, client, plan.id)).id);
    const { method } = await saveCard(client);
    expect((await chooseFunding(client, subscription.id, 'CARD')).status).toBe(200);

    const removed = await testApp.http.delete('/api/users/me/saved-card').set('Authorization', as(client));
    expect(removed.status).toBe(204);
    expect(await savedCardOf(client)).toEqual({ available: true, provider: 'STRIPE', card: null });
    expect(stripe.paymentMethods.get(method.id)?.customer).toBeNull();
    expect((await read(testApp, subscription.id)).renewalFunding).toBe('BALANCE');

    const again = await testApp.http.delete('/api/users/me/saved-card').set('Authorization', as(client));
    expect([again.status, again.body.error]).toEqual([409, 'error.card.not.saved']);
    const choice = await chooseFunding(client, subscription.id, 'CARD');
    expect([choice.status, choice.body.error]).toEqual([409, 'error.card.not.saved']);
  });

  it('leaves the read models equal to a replay of the events', async () => {
    await expectReadModelsToEqualReplay(testApp);
  });

  it('with the switch off in a second process: no saving, no card funding, yet the card can be removed', async () => {
    const plan = await createPlan(testApp, { price: 10, isRecurrent: true });
    const client = await customerWithBalance(testApp, 10);
    const subscription = await activate(testApp, (await bought(testApp, client, plan.id)).id);
    const { method } = await saveCard(client);
    expect((await chooseFunding(client, subscription.id, 'CARD')).status).toBe(200);
    // Another API process on the same database, started by an operator who turned card balance payments off.
    const second = await startTestApp({
      database: testApp.database,
      backgroundWork: false,
      env: { ...stripe.env(), PUBLIC_URL: 'https://kupa.example', CARD_BALANCE_PAYMENTS: '0' },
    });
    try {
      const call = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
        second.http[method](path).set('Authorization', as(client));
      const view = await call('get', '/api/users/me/saved-card');
      expect(view.body).toEqual({
        available: false,
        provider: 'STRIPE',
        card: expect.objectContaining({ last4: '4242' }),
      });

      const setupsBefore = stripe.setupSessions.size;
      const setup = await call('post', '/api/users/me/saved-card/setup');
      expect([setup.status, setup.body.error]).toEqual([409, 'error.card.balance.payments.off']);
      expect(stripe.setupSessions.size).toBe(setupsBefore);
      for (const funding of ['CARD', 'BALANCE_THEN_CARD']) {
        const refused = await call('put', `/api/subscriptions/${subscription.id}/renewal-funding`).send({ funding });
        expect([refused.status, refused.body.error]).toEqual([409, 'error.card.balance.payments.off']);
      }
      expect((await read(testApp, subscription.id)).renewalFunding).toBe('CARD');

      // Going back to the balance and removing the card stay open.
      const back = await call('put', `/api/subscriptions/${subscription.id}/renewal-funding`).send({
        funding: 'BALANCE',
      });
      expect([back.status, (back.body as Subscription).renewalFunding]).toEqual([200, 'BALANCE']);
      const removed = await call('delete', '/api/users/me/saved-card');
      expect(removed.status).toBe(204);
      expect((await call('get', '/api/users/me/saved-card')).body).toEqual({
        available: false,
        provider: 'STRIPE',
        card: null,
      });
      expect(stripe.paymentMethods.get(method.id)?.customer).toBeNull();
      await expectReadModelsToEqualReplay(testApp);
    } finally {
      await second.app.close();
      await second.mailbox.stop();
    }
  });
});

describe('Saved cards without a card provider', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // No Stripe and no sandboxes, so no sandbox card either (with it, saving works: sandbox-saved-card.api-spec.ts).
    testApp = await startTestApp({ env: { KUPA_SANDBOX: '0', PROVISIONING_URL: 'http://127.0.0.1:9' } });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('says saving is not available, and refuses to open a setup', async () => {
    const client = await createActiveUser(testApp);
    const view = await testApp.http
      .get('/api/users/me/saved-card')
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(view.body).toEqual({ available: false, provider: null, card: null });
    const setup = await testApp.http
      .post('/api/users/me/saved-card/setup')
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect([setup.status, setup.body.error]).toEqual([503, 'error.card.provider.unavailable']);
  });
});
