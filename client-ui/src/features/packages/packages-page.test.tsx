import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, type Plan, type Subscription, type User } from '@kupa/proto';
import { browser } from '../../lib/browser';
import { TOP_UP_PATH } from '../../app/access';
import { formatDollars } from '../../lib/format';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import {
  errorResponse,
  jsonResponse,
  makePlan,
  makeDictionaries,
  makePayment,
  makeSubscription,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../test/render-app';
import { fillCredentials as fill } from '../../test/credentials';

const MONTHLY = makePlan();
const YEARLY = makePlan({
  id: '7b0c3a52-0000-4000-8000-00000000aa12',
  name: 'Yearly',
  durationInMonths: 12,
  price: 199.99,
  isRecurrent: false,
  description: '',
  features: [],
});

type Answer = (call: RecordedCall) => Response | Promise<Response>;

/**
 * A client (10 % referral discount, trial already used unless told) who sees two packages; `buy` answers the purchase,
 * and `user` may change between calls (the balance after a refusal).
 */
function mockPackagesApi(
  options: {
    user?: () => Partial<User>;
    buy?: Answer;
    plans?: Plan[];
    subscriptions?: Subscription[];
    /** Answers anything else first; undefined leaves the call to the defaults. */
    other?: (call: RecordedCall) => Response | undefined;
  } = {},
) {
  const user = options.user ?? (() => ({}));
  return mockFetch(async (call) => {
    const other = options.other?.(call);
    if (other) return other;
    if (call.url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true, ...user() }));
    if (call.url === '/api/subscriptions/search') return jsonResponse(200, pageOf(options.subscriptions ?? []));
    if (call.url === '/api/payments/crypto/options')
      return jsonResponse(200, {
        minAmount: 5,
        maxAmount: 5000,
        methods: ['CRYPTO_USDT_TRC20', 'CRYPTO_BTC'],
        provider: 'SANDBOX',
      });
    if (call.url === '/api/payments/search') return jsonResponse(200, pageOf([]));
    if (call.url === '/api/payment-plans/search') return jsonResponse(200, pageOf(options.plans ?? [MONTHLY, YEARLY]));
    if (call.url.startsWith('/api/subscriptions/balance/payment-plans/'))
      return (options.buy ?? (() => jsonResponse(201, makeSubscription({ status: 'PENDING' }))))(call);
    if (call.url.startsWith('/api/subscriptions/')) return jsonResponse(200, makeSubscription({ status: 'PENDING' }));
    return errorResponse(404, 'error.entity.not.found');
  });
}

const purchases = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url.startsWith('/api/subscriptions/balance/payment-plans/'));

/** Raw text of the `<bdi>`s in an element: the Hebrew currency format holds marks that matchers normalise away. */
const isolatedTexts = (element: HTMLElement) => [...element.querySelectorAll('bdi')].map((node) => node.textContent);

async function openBuy(user: ReturnType<typeof userEvent.setup>, planName: string) {
  const card = (await screen.findAllByTestId('plan-card')).find(
    (element) => within(element).getByTestId('plan-name').textContent === planName,
  ) as HTMLElement;
  await user.click(within(card).getByTestId('plan-buy'));
  return screen.findByTestId('buy-dialog');
}

describe('packages', () => {
  it('shows the active packages with the referral discount applied: list price struck, price paid, badge', async () => {
    signInAs();
    const { calls } = mockPackagesApi();
    renderApp('/packages');

    const cards = await screen.findAllByTestId('plan-card');
    expect(cards).toHaveLength(2);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(translate('he', 'packages.title'));
    const monthly = cards[0];
    expect(within(monthly).getByRole('heading', { level: 2 })).toHaveTextContent('Monthly HD');
    // $20 less 10 % is $18; the list price is still there, struck through.
    expect(isolatedTexts(within(monthly).getByTestId('plan-price'))).toEqual([formatDollars(18, 'he')]);
    expect(within(monthly).getByTestId('plan-price-list').tagName).toBe('S');
    expect(isolatedTexts(within(monthly).getByTestId('plan-price-list'))).toEqual([formatDollars(20, 'he')]);
    expect(within(monthly).getByTestId('plan-price-discount')).toHaveTextContent('10%');
    expect(within(monthly).getByTestId('plan-duration')).toHaveTextContent('חודשי');
    expect(within(monthly).getByTestId('plan-recurrence')).toHaveTextContent(translate('he', 'packages.recurrent'));
    expect(within(monthly).getByText('Two screens')).toBeInTheDocument();
    expect(within(monthly).getByTestId('plan-description')).toHaveTextContent('Every channel in HD');
    // $199.99 less 10 % is $179.99 (20.00 rounded half up is taken off).
    expect(isolatedTexts(within(cards[1]).getByTestId('plan-price'))).toEqual([formatDollars(179.99, 'he')]);
    expect(within(cards[1]).getByTestId('plan-recurrence')).toHaveTextContent(translate('he', 'packages.oneOff'));
    expect(screen.getByTestId('packages-discount')).toHaveTextContent(
      translate('he', 'packages.discountApplied', { percent: 10 }),
    );
    expect(screen.getByTestId('packages-top-up')).toHaveAttribute('href', TOP_UP_PATH);
    // Only ACTIVE packages are asked for (the API gives a client nothing else anyway), and no trial offer is shown
    // to a user who used theirs.
    expect(calls.find((call) => call.url === '/api/payment-plans/search')?.body).toMatchObject({
      statuses: ['ACTIVE'],
    });
    expect(screen.queryByTestId('trial-offer')).toBeNull();
  });

  it('shows full prices without a badge to a client with no discount, in English', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockPackagesApi({
      user: () => ({ referrals: { ...makeUser().referrals, activeReferrals: 0, discountPercent: 0 } }),
    });
    renderApp('/packages');
    const [monthly] = await screen.findAllByTestId('plan-card');
    expect(within(monthly).getByTestId('plan-price')).toHaveTextContent('$20.00');
    expect(within(monthly).getByText('for 1 month')).toBeInTheDocument();
    expect(within(monthly).queryByTestId('plan-price-list')).toBeNull();
    expect(within(monthly).queryByTestId('plan-price-discount')).toBeNull();
    expect(within(monthly).getByRole('button', { name: 'Buy' })).toBeInTheDocument();
    expect(screen.getByTestId('packages-discount')).toHaveTextContent(translate('en', 'packages.noDiscount'));
  });

  it("shows each package's name and description in the reader's language, else in the other one", async () => {
    const bilingual = makePlan({
      name: 'חבילה משפחתית',
      description: 'כל הערוצים בארבעה מסכים',
      nameEn: 'Family Bundle',
      descriptionEn: 'Every channel on four screens',
    });
    const hebrewOnly = { ...YEARLY, name: 'שנתית', description: 'שנה שלמה', nameEn: '', descriptionEn: '' };
    signInAs();
    mockPackagesApi({ plans: [bilingual, hebrewOnly] });
    const view = renderApp('/packages');
    let cards = await screen.findAllByTestId('plan-card');
    expect(cards.map((card) => within(card).getByTestId('plan-name').textContent)).toEqual(['חבילה משפחתית', 'שנתית']);
    expect(within(cards[0]).getByTestId('plan-description')).toHaveTextContent('כל הערוצים בארבעה מסכים');
    view.unmount();

    useLangStore.getState().setLang('en');
    renderApp('/packages');
    cards = await screen.findAllByTestId('plan-card');
    expect(cards.map((card) => within(card).getByTestId('plan-name').textContent)).toEqual([
      'Family Bundle',
      // No English name: the English reader sees the Hebrew one rather than a blank.
      'שנתית',
    ]);
    expect(within(cards[0]).getByTestId('plan-description')).toHaveTextContent('Every channel on four screens');
    expect(within(cards[1]).getByTestId('plan-description')).toHaveTextContent('שנה שלמה');
    const dialog = await openBuy(userEvent.setup(), 'Family Bundle');
    expect(within(dialog).getByTestId('buy-summary')).toHaveTextContent('Family Bundle');
  });

  it('checks the login and the password with proto rules before anything is sent', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockPackagesApi();
    const user = userEvent.setup();
    renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');
    const message = (code: Parameters<typeof formatErrorMessage>[0]) => formatErrorMessage(code, 'en');

    await fill(user, 'buy', { login: '', password: '', confirmPassword: '' });
    expect(within(dialog).getAllByText(message('error.validation.required'))).toHaveLength(3);

    // Every rule is covered by the form's unit test; here, that the dialog applies them and says so.
    await fill(user, 'buy', { login: 'Dana.Levi', password: 'pass1234' });
    expect(within(dialog).getByText(message('error.validation.subscription.login'))).toBeInTheDocument();
    await fill(user, 'buy', { login: 'dana.levi', password: 'abc' });
    expect(within(dialog).getByText(message('error.validation.subscription.password'))).toBeInTheDocument();
    await fill(user, 'buy', { login: 'dana.levi', password: 'pass1234', confirmPassword: 'pass12345' });
    expect(within(dialog).getByText(message('error.validation.passwords.do.not.match'))).toBeInTheDocument();
    expect(purchases(calls)).toHaveLength(0);

    // The password can be shown to check it, and hidden again.
    const password = screen.getByTestId('buy-password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(within(dialog).getAllByRole('button', { name: translate('en', 'form.showPassword') })[0]);
    expect(password).toHaveAttribute('type', 'text');
  });

  it('buys with the balance and opens the new subscription, which is being set up', async () => {
    signInAs();
    let balance = 1234.5;
    const bought = makeSubscription({ id: '9a9a9a9a-0000-4000-8000-000000000001', status: 'PENDING' });
    const { calls } = mockPackagesApi({
      user: () => ({ balance }),
      buy: () => {
        balance -= 18;
        return jsonResponse(201, bought);
      },
    });
    const user = userEvent.setup();
    const { history } = renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');
    expect(isolatedTexts(within(dialog).getByTestId('buy-price'))).toEqual([formatDollars(18, 'he')]);
    expect(isolatedTexts(within(dialog).getByTestId('buy-balance'))).toEqual([
      formatDollars(1234.5, 'he'),
      formatDollars(1216.5, 'he'),
    ]);

    await fill(user, 'buy', { login: 'dana.levi_2', password: 'My pass!' });

    // The subscription screen is a lazy route, compiled on its first visit in a test run: that may take a while.
    await waitFor(() => expect(history.location.pathname).toBe(`/subscriptions/${bought.id}`), { timeout: 15_000 });
    expect(purchases(calls)).toHaveLength(1);
    expect(purchases(calls)[0]).toMatchObject({
      method: 'POST',
      url: `/api/subscriptions/balance/payment-plans/${MONTHLY.id}`,
      // The confirmation is checked here and never sent.
      body: { login: 'dana.levi_2', password: 'My pass!' },
    });
    expect(await screen.findByTestId('toast')).toHaveTextContent(translate('he', 'buy.done'));
    expect(await screen.findByTestId('subscription-pending', {}, { timeout: 15_000 })).toHaveTextContent(
      translate('he', 'subscription.pending'),
    );
    // The balance in the app bar was read again after the purchase.
    await waitFor(() => expect(isolatedTexts(screen.getByTestId('balance'))).toEqual([formatDollars(1216.5, 'he')]));
  });

  it('applies a promo code: shows the new price before confirming and buys with the code (ADR 0088)', async () => {
    signInAs();
    const { calls } = mockPackagesApi({
      user: () => ({ balance: 100 }),
      other: (call) => {
        if (!call.url.startsWith('/api/promo-codes/quote')) return undefined;
        if (call.url.includes('code=late')) return errorResponse(409, 'error.promo.code.used.up');
        return jsonResponse(200, {
          code: 'SPRING',
          listPrice: 20,
          price: 15,
          applied: 'PROMO_CODE',
          discountPercent: 0,
          promoDiscount: 5,
          currency: 'USD',
        });
      },
    });
    const user = userEvent.setup();
    renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');
    expect(isolatedTexts(within(dialog).getByTestId('buy-price'))).toEqual([formatDollars(18, 'he')]);

    // A refused code says why in the catalogue's words and leaves the price alone.
    await user.type(within(dialog).getByTestId('buy-promo-input'), 'late');
    await user.click(within(dialog).getByTestId('buy-promo-apply'));
    expect(await within(dialog).findByText(formatErrorMessage('error.promo.code.used.up', 'he'))).toBeInTheDocument();
    expect(isolatedTexts(within(dialog).getByTestId('buy-price'))).toEqual([formatDollars(18, 'he')]);

    await user.clear(within(dialog).getByTestId('buy-promo-input'));
    await user.type(within(dialog).getByTestId('buy-promo-input'), 'spring');
    await user.click(within(dialog).getByTestId('buy-promo-apply'));
    await waitFor(() =>
      expect(isolatedTexts(within(dialog).getByTestId('buy-price'))).toEqual([formatDollars(15, 'he')]),
    );
    expect(within(dialog).getByTestId('buy-price-code')).toHaveTextContent('SPRING');
    expect(within(dialog).getByTestId('buy-promo-result')).toHaveTextContent('SPRING');
    // The field shows the code as applied, as the chip and the result spell it, not as typed.
    expect(within(dialog).getByTestId('buy-promo-input')).toHaveValue('SPRING');
    expect(calls.find((call) => call.url.startsWith('/api/promo-codes/quote?'))?.url).toContain(`planId=${MONTHLY.id}`);

    await fill(user, 'buy', { login: 'dana.levi_2', password: 'My pass!' });
    await waitFor(() => expect(purchases(calls)).toHaveLength(1));
    expect(purchases(calls)[0].body).toEqual({ login: 'dana.levi_2', password: 'My pass!', promoCode: 'SPRING' });
  });

  it('says the referral discount is larger when it wins, and buys without spending the code (ADR 0088)', async () => {
    signInAs();
    const { calls } = mockPackagesApi({
      user: () => ({ balance: 100 }),
      other: (call) => {
        if (!call.url.startsWith('/api/promo-codes/quote')) return undefined;
        // The client's 10 % referral discount ($2) takes more off than the code's $1: the larger wins.
        return jsonResponse(200, {
          code: 'SMALL',
          listPrice: 20,
          price: 18,
          applied: 'REFERRAL',
          discountPercent: 10,
          promoDiscount: 0,
          currency: 'USD',
        });
      },
    });
    const user = userEvent.setup();
    renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');
    await user.type(within(dialog).getByTestId('buy-promo-input'), 'small');
    await user.click(within(dialog).getByTestId('buy-promo-apply'));
    expect(await within(dialog).findByTestId('buy-promo-result')).toHaveTextContent(
      translate('he', 'promo.referralWins'),
    );
    expect(isolatedTexts(within(dialog).getByTestId('buy-price'))).toEqual([formatDollars(18, 'he')]);
    expect(within(dialog).queryByTestId('buy-price-code')).not.toBeInTheDocument();

    await fill(user, 'buy', { login: 'dana.levi_2', password: 'My pass!' });
    await waitFor(() => expect(purchases(calls)).toHaveLength(1));
    expect(purchases(calls)[0].body).toEqual({ login: 'dana.levi_2', password: 'My pass!' });
  });

  it('takes the code on the card and crypto choices too: the asked price follows the quote (ADR 0088)', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { calls } = mockPackagesApi({
      user: () => ({ balance: 5 }),
      other: ({ url }) => {
        if (url === '/api/dictionaries')
          return jsonResponse(200, { ...makeDictionaries(), cardCheckoutAvailable: true });
        if (url.startsWith('/api/promo-codes/quote'))
          return jsonResponse(200, {
            code: 'SPRING',
            listPrice: 20,
            price: 15,
            applied: 'PROMO_CODE',
            discountPercent: 0,
            promoDiscount: 5,
            currency: 'USD',
          });
        if (url.startsWith('/api/stripe/create-checkout-session/payment-plans/'))
          return jsonResponse(201, { paymentId: 92, url: 'https://checkout.stripe.test/c/pay/cs_test_2' });
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');

    // The balance is short: the crypto deposit is offered first, and the code field is there with it.
    const crypto = await within(dialog).findByTestId('buy-crypto');
    expect(crypto).toHaveTextContent(`An invoice for ${formatDollars(18, 'en')} opens at the crypto cashier.`);
    await user.type(within(dialog).getByTestId('buy-promo-input'), 'spring');
    await user.click(within(dialog).getByTestId('buy-promo-apply'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('buy-crypto')).toHaveTextContent(
        `An invoice for ${formatDollars(15, 'en')} opens at the crypto cashier.`,
      ),
    );
    expect(isolatedTexts(within(dialog).getByTestId('buy-price'))).toEqual([formatDollars(15, 'en')]);

    // The card asks the same price with the code, and the checkout carries it.
    await user.click(within(dialog).getByTestId('buy-pay-card'));
    expect(within(dialog).getByTestId('buy-card')).toHaveTextContent(`You pay ${formatDollars(15, 'en')}`);
    expect(within(dialog).getByTestId('buy-promo-result')).toHaveTextContent('SPRING');
    await fill(user, 'buy', { login: 'dana.levi', password: 'pass1234' });
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(calls.find((call) => call.url.startsWith('/api/stripe/'))).toMatchObject({
      method: 'POST',
      body: { login: 'dana.levi', password: 'pass1234', promoCode: 'SPRING' },
    });
    expect(purchases(calls)).toHaveLength(0);
  });

  it('says how much is missing when the balance is short, and leads to the top-up', async () => {
    signInAs();
    const { calls } = mockPackagesApi({ user: () => ({ balance: 5 }) });
    const user = userEvent.setup();
    const { history } = renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');

    // A short balance offers the crypto deposit first; the balance is still there to choose, and says what is missing.
    expect(within(dialog).getByTestId('buy-pay-crypto')).toBeChecked();
    await user.click(within(dialog).getByTestId('buy-pay-balance'));
    const shortfall = await within(dialog).findByTestId('buy-shortfall');
    // $18 to pay with $5: $13 missing.
    expect(within(shortfall).getByTestId('buy-shortfall-missing').textContent).toBe(formatDollars(13, 'he'));
    expect(screen.getByTestId('buy-submit')).toBeDisabled();
    const topUp = within(shortfall).getByTestId('buy-shortfall-top-up');
    expect(topUp).toHaveAttribute('href', TOP_UP_PATH);
    expect(topUp).toHaveTextContent(translate('he', 'balance.topUp'));

    await user.click(topUp);
    await waitFor(() => expect(history.location.pathname).toBe(TOP_UP_PATH));
    expect(purchases(calls)).toHaveLength(0);
  });

  it('reads the balance again when the server finds it short, and shows what is missing', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    // The balance looked enough, but a transfer elsewhere spent it before the purchase arrived.
    let balance = 100;
    const { calls } = mockPackagesApi({
      user: () => ({ balance }),
      buy: () => {
        balance = 10;
        return errorResponse(409, 'error.insufficient.balance');
      },
    });
    const user = userEvent.setup();
    renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');
    await fill(user, 'buy', { login: 'dana.levi', password: 'pass1234' });

    // Now short, the dialog offers the crypto deposit; the balance, chosen again, says what is missing.
    await user.click(await within(dialog).findByTestId('buy-pay-balance'));
    const shortfall = await within(dialog).findByTestId('buy-shortfall');
    expect(within(shortfall).getByTestId('buy-shortfall-missing')).toHaveTextContent('$8.00');
    expect(shortfall).toHaveTextContent(
      'Your balance is $8.00 short. Top up your balance, then come back to complete the purchase.',
    );
    expect(within(shortfall).getByRole('link', { name: 'Top up the balance' })).toHaveAttribute('href', TOP_UP_PATH);
    expect(purchases(calls)).toHaveLength(1);
    // The refusal is explained in the dialog, not repeated in a toast.
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('shows a login already taken beside the login, and other refusals in the dialog, in the page language', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const answers = [
      errorResponse(409, 'error.login.already.exists'),
      errorResponse(409, 'error.payment.plan.not.active'),
    ];
    mockPackagesApi({ buy: () => answers.shift() ?? errorResponse(500, 'error.internal.server.error') });
    const user = userEvent.setup();
    renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');

    await fill(user, 'buy', { login: 'taken.login', password: 'pass1234' });
    expect(await within(dialog).findByText(formatErrorMessage('error.login.already.exists', 'en'))).toBeInTheDocument();
    expect(screen.getByTestId('buy-login')).toHaveAttribute('aria-invalid', 'true');

    await fill(user, 'buy', { login: 'free.login', password: 'pass1234' });
    expect(await within(dialog).findByTestId('buy-error')).toHaveTextContent(
      formatErrorMessage('error.payment.plan.not.active', 'en'),
    );
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('offers the trial above the packages to a user who has neither taken nor declined it', async () => {
    signInAs();
    mockPackagesApi({ user: () => ({ trialUsed: false, trialRejected: false }) });
    renderApp('/packages');
    const offer = await screen.findByTestId('trial-offer');
    expect(offer).toHaveTextContent(translate('he', 'trial.title', { days: 3 }));
    expect(within(offer).getByTestId('trial-rules')).toHaveTextContent(translate('he', 'trial.rule.noCancel'));
  });

  it('buys by crypto deposit where the balance is short, and shows the invoice and what it will buy', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const invoiceUrl = 'http://kupa.test/api/sandbox/cashier/invoices/4522625843';
    const { calls } = mockPackagesApi({
      user: () => ({ balance: 5 }),
      other: ({ url }) => {
        if (url === `/api/payments/crypto/deposit-and-buy-subscription/payment-plans/${MONTHLY.id}`)
          return jsonResponse(201, { paymentId: 88, invoiceUrl });
        if (url === '/api/payments/88')
          return jsonResponse(
            200,
            makePayment({
              paymentId: 88,
              status: 'PENDING',
              type: 'DEPOSIT',
              aggregator: 'CASHIER',
              method: 'CRYPTO_BTC',
              amount: 18,
              cashier: {
                provider: 'SANDBOX',
                invoiceId: '4522625843',
                invoiceUrl,
                providerPaymentId: null,
                providerStatus: null,
                payCurrency: 'btc',
                amountAsked: 18,
                amountReceived: 0,
                amountHeld: null,
              },
              purchase: {
                kind: 'BUY',
                paymentPlanId: MONTHLY.id,
                planName: MONTHLY.name,
                subscriptionId: null,
                status: 'WAITING',
                errorCode: null,
              },
            }),
          );
        return undefined;
      },
    });
    const user = userEvent.setup();
    const { history } = renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');

    const crypto = await within(dialog).findByTestId('buy-crypto');
    expect(crypto).toHaveTextContent(`An invoice for ${formatDollars(18, 'en')} opens at the crypto cashier.`);
    expect(screen.getByTestId('buy-submit')).toHaveTextContent('Deposit and buy');
    await user.click(within(crypto).getByRole('combobox', { name: 'Coin' }));
    await user.click(await screen.findByRole('option', { name: 'Bitcoin' }));
    await fill(user, 'buy', { login: 'dana.levi', password: 'pass1234' });

    await waitFor(() => expect(history.location.pathname).toBe(TOP_UP_PATH), { timeout: 15_000 });
    expect(history.location.search).toContain('paymentId=88');
    expect(
      calls.find(
        (call) => call.url === `/api/payments/crypto/deposit-and-buy-subscription/payment-plans/${MONTHLY.id}`,
      ),
    ).toMatchObject({ method: 'POST', body: { method: 'CRYPTO_BTC', login: 'dana.levi', password: 'pass1234' } });
    expect(purchases(calls)).toHaveLength(0);
    expect(await screen.findByTestId('crypto-invoice-link', {}, { timeout: 15_000 })).toHaveAttribute(
      'href',
      invoiceUrl,
    );
    expect(screen.getByTestId('crypto-purchase')).toHaveTextContent(
      'Once the money arrives, the package \u2068Monthly HD\u2069 is bought by itself.',
    );
  }, 40_000);

  it('with a balance below zero, asks the price plus the debt, by crypto and by card, and says why', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockPackagesApi({
      user: () => ({ balance: -10 }),
      other: ({ url }) =>
        url === '/api/dictionaries'
          ? jsonResponse(200, { ...makeDictionaries(), cardCheckoutAvailable: true })
          : undefined,
    });
    const user = userEvent.setup();
    renderApp('/packages');
    const dialog = await openBuy(user, 'Monthly HD');

    // The $18 package with $10 owed: the price alone would pay the debt and buy nothing.
    const crypto = await within(dialog).findByTestId('buy-crypto');
    expect(crypto).toHaveTextContent(`An invoice for ${formatDollars(28, 'en')} opens at the crypto cashier.`);
    expect(within(crypto).getByTestId('buy-crypto-debt')).toHaveTextContent(
      `This includes the ${formatDollars(10, 'en')} your balance owes`,
    );
    await user.click(within(dialog).getByTestId('buy-pay-card'));
    const card = within(dialog).getByTestId('buy-card');
    expect(card).toHaveTextContent(`You pay ${formatDollars(28, 'en')}`);
    expect(within(card).getByTestId('buy-card-debt')).toHaveTextContent(formatDollars(10, 'en'));
  });

  it('offers a card where the deployment takes cards and the package allows it, and leaves for the checkout', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const checkoutUrl = 'https://checkout.stripe.test/c/pay/cs_test_1';
    const { calls } = mockPackagesApi({
      plans: [MONTHLY, { ...YEARLY, cardPaymentAllowed: false }],
      other: ({ url }) => {
        if (url === '/api/dictionaries')
          return jsonResponse(200, { ...makeDictionaries(), cardCheckoutAvailable: true });
        if (url.startsWith('/api/stripe/create-checkout-session/payment-plans/'))
          return jsonResponse(201, { paymentId: 91, url: checkoutUrl });
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderApp('/packages');

    // The yearly package does not take cards: the balance (enough here) is the only way, and no choice is shown.
    let dialog = await openBuy(user, 'Yearly');
    expect(within(dialog).queryByTestId('buy-pay-card')).toBeNull();
    await user.click(within(dialog).getByTestId('buy-cancel'));
    await waitFor(() => expect(screen.queryByTestId('buy-dialog')).toBeNull());

    dialog = await openBuy(user, 'Monthly HD');
    await user.click(await within(dialog).findByTestId('buy-pay-card'));
    expect(within(dialog).getByTestId('buy-card')).toHaveTextContent(formatDollars(18, 'en'));
    expect(screen.getByTestId('buy-submit')).toHaveTextContent('Pay by card');
    await fill(user, 'buy', { login: 'dana.levi', password: 'pass1234' });

    await waitFor(() => expect(assign).toHaveBeenCalledWith(checkoutUrl));
    expect(calls.find((call) => call.url.startsWith('/api/stripe/'))).toMatchObject({
      method: 'POST',
      url: `/api/stripe/create-checkout-session/payment-plans/${MONTHLY.id}`,
      body: { login: 'dana.levi', password: 'pass1234' },
    });
    expect(purchases(calls)).toHaveLength(0);
  });

  it('does not offer the trial to a user who already bought a package', async () => {
    signInAs();
    const { calls } = mockPackagesApi({
      user: () => ({ trialUsed: false, trialRejected: false }),
      subscriptions: [makeSubscription({ status: 'ACTIVE' })],
    });
    renderApp('/packages');
    await screen.findAllByTestId('plan-card');
    await waitFor(() => expect(calls.some((call) => call.url === '/api/subscriptions/search')).toBe(true));
    expect(calls.find((call) => call.url === '/api/subscriptions/search')?.body).toMatchObject({ types: ['REGULAR'] });
    expect(screen.queryByTestId('trial-offer')).toBeNull();
  });
});
