import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { browser } from '../../../lib/browser';
import { formatDollars } from '../../../lib/format';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import {
  jsonResponse,
  makeDictionaries,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  SUPPORT_CONTACTS,
} from '../../../test/render-app';

function mockDepositApi(
  support = SUPPORT_CONTACTS,
  cardTopUpAvailable = false,
  more: { cryptoDepositAvailable?: boolean } = {},
) {
  return mockFetch(({ url, method }) =>
    url === '/api/payments/search'
      ? jsonResponse(200, pageOf([]))
      : url === '/api/dictionaries'
        ? jsonResponse(200, {
            ...makeDictionaries(support),
            cardCheckoutAvailable: cardTopUpAvailable,
            cardTopUpAvailable,
            ...more,
          })
        : url === '/api/payments/crypto/options'
          ? jsonResponse(200, { minAmount: 5, maxAmount: 5000, methods: ['CRYPTO_USDT_TRC20'], provider: 'SANDBOX' })
          : url === '/api/payments/card/deposit' && method === 'POST'
            ? jsonResponse(201, { paymentId: 91, url: 'https://checkout.stripe.test/c/pay/cs_test_91' })
            : jsonResponse(200, makeUser({ profileId: '24681357' })),
  );
}

describe('deposit', () => {
  it('opens from the payments screen and explains the manual transfer with the profile ID as the reference', async () => {
    signInAs();
    mockDepositApi();
    const user = userEvent.setup();
    renderApp('/payments');
    await user.click(await screen.findByTestId('deposit-open'));

    const instructions = await screen.findByTestId('deposit-instructions');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(translate('he', 'deposit.title'));
    expect(within(instructions).getByTestId('deposit-reference')).toHaveTextContent('24681357');
    expect(within(instructions).getAllByText('24681357', { selector: 'bdi' }).length).toBeGreaterThan(0);
    expect(screen.getByTestId('deposit-method-manual')).toBeChecked();
    expect(screen.getByTestId('deposit-method-crypto')).toBeEnabled();
    // The deployment takes no card top-ups (the dictionaries do not say it does): the card is not offered at all.
    expect(screen.queryByTestId('deposit-method-card')).toBeNull();
    expect(screen.getByTestId('deposit-currency')).toHaveValue('USD');

    await user.type(screen.getByTestId('deposit-amount'), '75');
    // Compared as raw text: the Hebrew format holds direction marks and a no-break space that matchers normalise.
    expect([...instructions.querySelectorAll('bdi')].map((node) => node.textContent)).toContain(
      formatDollars(75, 'he'),
    );
  });

  it('where card top-ups are on, offers the card and sends the client to the checkout for the amount', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockDepositApi(SUPPORT_CONTACTS, true);
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('/payments/deposit');
    await screen.findByTestId('deposit-instructions');
    await user.type(screen.getByTestId('deposit-amount'), '40');

    await user.click(screen.getByTestId('deposit-method-card'));
    const form = await screen.findByTestId('card-deposit-form');
    expect(form).toHaveTextContent(translate('en', 'deposit.card.explain'));
    expect(screen.queryByTestId('deposit-instructions')).toBeNull();
    // The amount typed for the transfer is kept; the limits are the crypto deposit's.
    expect(screen.getByTestId('card-amount')).toHaveValue('40');
    expect(within(form).getByText(`From ${formatDollars(5, 'en')} to ${formatDollars(5000, 'en')}`)).toBeVisible();

    await user.clear(screen.getByTestId('card-amount'));
    await user.type(screen.getByTestId('card-amount'), '5001');
    await user.click(screen.getByTestId('card-pay'));
    expect(calls.some((call) => call.url === '/api/payments/card/deposit')).toBe(false);

    await user.clear(screen.getByTestId('card-amount'));
    await user.type(screen.getByTestId('card-amount'), '40');
    await user.click(screen.getByTestId('card-pay'));
    expect(calls.find((call) => call.url === '/api/payments/card/deposit')?.body).toEqual({ amount: 40 });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_test_91'));
  });

  it("fills in the amount of the reminders' link (?amountMinor=) and starts on crypto, or on the card without a cashier", async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockDepositApi(SUPPORT_CONTACTS, true);
    const user = userEvent.setup();
    const first = renderApp('/payments/deposit?amountMinor=1250');
    expect(await screen.findByTestId('crypto-amount')).toHaveValue('12.50');
    expect(screen.getByTestId('deposit-method-crypto')).toBeChecked();
    // The same amount for the other method.
    await user.click(screen.getByTestId('deposit-method-card'));
    expect(await screen.findByTestId('card-amount')).toHaveValue('12.50');
    first.unmount();

    mockDepositApi(SUPPORT_CONTACTS, true, { cryptoDepositAvailable: false });
    const second = renderApp('/payments/deposit?amountMinor=4000');
    expect(await screen.findByTestId('card-amount')).toHaveValue('40');
    expect(screen.getByTestId('deposit-method-card')).toBeChecked();
    second.unmount();
  });

  it('drops an amount that is not a positive number of cents, and starts empty on the transfer', async () => {
    signInAs();
    mockDepositApi(SUPPORT_CONTACTS, true);
    renderApp('/payments/deposit?amountMinor=-5');
    await screen.findByTestId('deposit-instructions');
    expect(screen.getByTestId('deposit-method-manual')).toBeChecked();
    expect(screen.getByTestId('deposit-amount')).toHaveValue('');
  });

  it('checks the amount, then records the claim with "I\'ve sent it" and lists it with its status', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const claims: object[] = [
      {
        claimId: 'c0',
        userUuid: 'u',
        amount: 40,
        currency: 'USD',
        reference: '24681357',
        note: null,
        status: 'REJECTED',
        paymentId: null,
        reasonText: 'No transfer arrived',
        claimedAt: '2026-11-29T10:00:00.000Z',
        closedAt: '2026-11-29T12:00:00.000Z',
      },
    ];
    const { calls } = mockFetch(({ url, method, body }) => {
      if (url === '/api/deposit-claims' && method === 'POST') {
        const created = {
          ...claims[0],
          claimId: 'c1',
          amount: (body as { amount: number }).amount,
          status: 'OPEN',
          reasonText: null,
          closedAt: null,
        };
        claims.unshift(created);
        return jsonResponse(201, created);
      }
      if (url === '/api/deposit-claims') return jsonResponse(200, claims);
      if (url === '/api/payments/search') return jsonResponse(200, pageOf([]));
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries(SUPPORT_CONTACTS));
      return jsonResponse(200, makeUser({ profileId: '24681357' }));
    });
    const user = userEvent.setup();
    renderApp('/payments/deposit');
    await screen.findByTestId('deposit-instructions');
    const rejected = await screen.findByTestId('deposit-claim-c0');
    expect(rejected).toHaveTextContent('Rejected');
    expect(rejected).toHaveTextContent('Reason: No transfer arrived');

    await user.type(screen.getByTestId('deposit-amount'), '10.999');
    await user.click(screen.getByTestId('deposit-notify'));
    expect(
      screen.getByText(formatErrorMessage('error.validation.max.decimal.places', 'en', { maxDecimalPlaces: 2 })),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.url === '/api/deposit-claims' && call.method === 'POST')).toBe(false);

    await user.clear(screen.getByTestId('deposit-amount'));
    await user.type(screen.getByTestId('deposit-amount'), '250');
    await user.click(screen.getByTestId('deposit-notify'));
    const open = await screen.findByTestId('deposit-claim-c1');
    expect(open).toHaveTextContent('Waiting to be checked');
    const posts = calls.filter((call) => call.url === '/api/deposit-claims' && call.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toEqual({ amount: 250 });
    expect(posts[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('where the deployment has no crypto cashier, says so in both languages instead of offering crypto', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/payments/search'
        ? jsonResponse(200, pageOf([]))
        : url === '/api/dictionaries'
          ? jsonResponse(200, { ...makeDictionaries(SUPPORT_CONTACTS), cryptoDepositAvailable: false })
          : jsonResponse(200, makeUser({ profileId: '24681357' })),
    );
    renderApp('/payments/deposit');
    const notice = await screen.findByTestId('deposit-crypto-unavailable');
    expect(notice).toHaveTextContent(translate('he', 'deposit.crypto.unavailable'));
    expect(screen.getByTestId('deposit-method-crypto')).toBeDisabled();
    expect(screen.getByTestId('deposit-unavailable-crypto')).toHaveTextContent(translate('he', 'deposit.unavailable'));
    expect(screen.getByTestId('deposit-method-manual')).toBeChecked();
    useLangStore.getState().setLang('en');
    expect(await screen.findByText(translate('en', 'deposit.crypto.unavailable'))).toBeInTheDocument();
    // Nothing asks the missing cashier for its options.
    expect(calls.some((call) => call.url === '/api/payments/crypto/options')).toBe(false);
  });

  it('names only the configured contacts, and offers the claim without an operator address', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockDepositApi({ telegram: 'https://t.me/kupa_help', email: null });
    renderApp('/payments/deposit');
    const instructions = await screen.findByTestId('deposit-instructions');

    const telegram = await within(instructions).findByRole('link', { name: translate('en', 'help.telegram') });
    expect(telegram).toHaveAttribute('href', 'https://t.me/kupa_help');
    expect(instructions).toHaveTextContent('Contact the operator on Telegram to get the payment details.');
    expect(within(instructions).queryByText(/mail/i)).toBeNull();
    // The claim needs no address: "I've sent it" is offered all the same.
    expect(screen.getByTestId('deposit-notify')).toHaveTextContent("I've sent it");
  });
});

describe('crypto deposit', () => {
  const cashier = {
    provider: 'SANDBOX' as const,
    invoiceId: '4522625843',
    invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/4522625843',
    providerPaymentId: null,
    providerStatus: null,
    payCurrency: 'btc',
    amountAsked: 50,
    amountReceived: 0,
    amountHeld: null,
  };

  it('shows the limits, refuses an amount outside them, opens the invoice and follows it until it settles', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    let reads = 0;
    const { calls } = mockFetch(({ url, method }) => {
      if (url === '/api/payments/crypto/options')
        return jsonResponse(200, {
          minAmount: 10,
          maxAmount: 1000,
          methods: ['CRYPTO_USDT_TRC20', 'CRYPTO_BTC'],
          provider: 'SANDBOX',
        });
      if (url === '/api/payments/crypto/deposit' && method === 'POST')
        return jsonResponse(201, { paymentId: 77, invoiceUrl: cashier.invoiceUrl });
      if (url === '/api/payments/77') {
        reads += 1;
        return jsonResponse(
          200,
          reads === 1
            ? makePayment({
                paymentId: 77,
                status: 'PENDING',
                aggregator: 'CASHIER',
                method: 'CRYPTO_BTC',
                amount: 50,
                cashier,
              })
            : makePayment({
                paymentId: 77,
                status: 'SUCCESS',
                aggregator: 'CASHIER',
                method: 'CRYPTO_BTC',
                amount: 25,
                cashier: {
                  ...cashier,
                  providerStatus: 'partially_paid',
                  providerPaymentId: '5077125051',
                  amountReceived: 25,
                },
              }),
        );
      }
      if (url === '/api/payments/search') return jsonResponse(200, pageOf([]));
      if (url === '/api/dictionaries') return jsonResponse(200, makeDictionaries(SUPPORT_CONTACTS));
      return jsonResponse(200, makeUser());
    });
    const user = userEvent.setup();
    renderApp('/payments/deposit');
    await user.click(await screen.findByTestId('deposit-method-crypto'));
    const form = await screen.findByTestId('crypto-deposit-form');
    expect(
      within(form).getByText(`From ${formatDollars(10, 'en')} to ${formatDollars(1000, 'en')}`),
    ).toBeInTheDocument();
    expect(screen.getByTestId('crypto-sandbox')).toBeInTheDocument();

    await user.type(screen.getByTestId('crypto-amount'), '5');
    await user.click(screen.getByTestId('crypto-create'));
    expect(calls.some((call) => call.url === '/api/payments/crypto/deposit')).toBe(false);

    await user.clear(screen.getByTestId('crypto-amount'));
    await user.type(screen.getByTestId('crypto-amount'), '50');
    await user.click(screen.getByRole('combobox', { name: 'Coin' }));
    await user.click(await screen.findByRole('option', { name: 'Bitcoin' }));
    await user.click(screen.getByTestId('crypto-create'));
    expect(calls.find((call) => call.url === '/api/payments/crypto/deposit')?.body).toEqual({
      amount: 50,
      method: 'CRYPTO_BTC',
    });
    expect(await screen.findByTestId('crypto-invoice-link')).toHaveAttribute('href', cashier.invoiceUrl);
    expect(screen.getByTestId('crypto-status')).toHaveTextContent('Pending');

    const settled = await screen.findByTestId('crypto-settled', {}, { timeout: 8000 });
    expect(settled).toHaveTextContent(
      `Only part arrived: ${formatDollars(25, 'en')} of the ${formatDollars(50, 'en')} asked was added to your balance.`,
    );
    expect(screen.getByTestId('crypto-status')).toHaveTextContent('Partly paid');
    expect(screen.queryByTestId('crypto-invoice-link')).not.toBeInTheDocument();
  }, 40_000);
});
