import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addCalendarMonths, formatErrorMessage, type Subscription, type User } from '@kupa/proto';
import { TOP_UP_PATH } from '../../../app/access';
import { formatDate, formatDateTime, formatDollars } from '../../../lib/format';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import { fillCredentials } from '../../../test/credentials';
import {
  errorResponse,
  jsonResponse,
  makeDictionaries,
  makePayment,
  makePlan,
  makeSubscription,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../../test/render-app';

const SUBSCRIPTION = makeSubscription();
const PATH = `/subscriptions/${SUBSCRIPTION.id}`;
const DAY_MS = 24 * 60 * 60 * 1000;
/** An instant `days` from the real now: the screen reads the clock to tell what can be done. */
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

/**
 * One subscription as `current()` says at each read, and its package on sale; `change` answers every call that
 * changes it (and may change what `current()` returns).
 */
function mockDetailApi(options: {
  current?: () => Subscription;
  user?: () => Partial<User>;
  change?: (call: RecordedCall) => Response;
  /** What `GET /dictionaries` says of the crypto cashier; unset, the dictionaries are not answered at all. */
  cryptoDepositAvailable?: boolean;
  /** The answer to a deposit-and-renew; by default the deposit opens (payment 93). */
  depositAndRenew?: () => Response;
}) {
  const current = options.current ?? (() => SUBSCRIPTION);
  return mockFetch((call) => {
    if (call.url === '/api/dictionaries' && options.cryptoDepositAvailable !== undefined)
      return jsonResponse(200, { ...makeDictionaries(), cryptoDepositAvailable: options.cryptoDepositAvailable });
    if (call.url === '/api/payments/crypto/options')
      return jsonResponse(200, { minAmount: 5, maxAmount: 5000, methods: ['CRYPTO_USDT_TRC20'], provider: 'SANDBOX' });
    if (call.url === '/api/payments/crypto/deposit-and-renew-subscription')
      return (
        options.depositAndRenew?.() ??
        jsonResponse(201, { paymentId: 93, invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/1' })
      );
    if (call.url === '/api/payments/search') return jsonResponse(200, pageOf([]));
    if (call.url === '/api/payments/93')
      return jsonResponse(
        200,
        makePayment({
          paymentId: 93,
          status: 'PENDING',
          aggregator: 'CASHIER',
          method: 'CRYPTO_USDT_TRC20',
          amount: 18,
          purchase: {
            kind: 'RENEW',
            paymentPlanId: makePlan().id,
            planName: 'Monthly HD',
            subscriptionId: SUBSCRIPTION.id,
            status: 'WAITING',
            errorCode: null,
          },
        }),
      );
    if (call.url.startsWith('/api/promo-codes/quote'))
      return jsonResponse(200, {
        code: 'LOYAL',
        listPrice: 20,
        price: 12,
        applied: 'PROMO_CODE',
        discountPercent: 0,
        promoDiscount: 8,
        currency: 'USD',
      });
    if (call.url === '/api/users/me') return jsonResponse(200, makeUser({ trialUsed: true, ...options.user?.() }));
    if (call.url === '/api/payment-plans/search') return jsonResponse(200, pageOf([makePlan()]));
    if (call.url === `/api/subscriptions/${SUBSCRIPTION.id}` && call.method === 'GET')
      return jsonResponse(200, current());
    if (call.url.startsWith('/api/subscriptions'))
      return (options.change ?? (() => jsonResponse(200, current())))(call);
    return errorResponse(404, 'error.entity.not.found');
  });
}

/** The calls that change something: not the reads, nor the searches (packages, the watch of pending deposits). */
const changes = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method !== 'GET' && !call.url.endsWith('/search'));

describe('subscription detail', () => {
  it('shows the subscription and cancels it after a confirmation that it stays active until its end', async () => {
    signInAs();
    let subscription = SUBSCRIPTION;
    const { calls } = mockDetailApi({
      current: () => subscription,
      change: () => {
        subscription = { ...subscription, cancelAtPeriodEnd: true, nextPaymentDate: null };
        return jsonResponse(200, subscription);
      },
    });
    const user = userEvent.setup();
    renderApp(PATH);

    const detail = await screen.findByTestId('subscription-detail');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Monthly HD');
    expect(within(detail).getByTestId('subscription-detail-status')).toHaveTextContent('פעיל');
    expect(within(detail).getByTestId('subscription-detail-login')).toHaveTextContent('dana.levi');
    // Dates keep their no-break spaces (a line never breaks inside one); `toHaveTextContent` turns those into plain
    // spaces and so never matches a date, hence the comparisons with the text as it is.
    const endDate = formatDate(SUBSCRIPTION.endDate ?? '', 'he');
    expect(within(detail).getByTestId('subscription-detail-end').textContent).toContain(endDate);
    expect(within(detail).getByTestId('subscription-detail-next-payment').textContent).toContain(
      formatDate(SUBSCRIPTION.nextPaymentDate ?? '', 'he'),
    );
    expect(within(detail).getByTestId('subscription-detail-recurrent')).toHaveTextContent(
      translate('he', 'subscription.recurrent.yes'),
    );

    await user.click(screen.getByTestId('subscription-cancel'));
    const dialog = await screen.findByTestId('cancel-subscription-dialog');
    expect(within(dialog).getByTestId('cancel-subscription-text').textContent).toContain(
      translate('he', 'subscription.cancelText', { date: endDate }),
    );
    await user.click(within(dialog).getByTestId('cancel-subscription-cancel'));
    await waitFor(() => expect(screen.queryByTestId('cancel-subscription-dialog')).toBeNull());
    expect(changes(calls)).toHaveLength(0);

    await user.click(screen.getByTestId('subscription-cancel'));
    await user.click(await screen.findByTestId('cancel-subscription-confirm'));

    expect((await screen.findByTestId('subscription-cancel-notice')).textContent).toContain(
      translate('he', 'subscription.cancelNotice', { date: endDate }),
    );
    expect(changes(calls)).toEqual([
      expect.objectContaining({ method: 'DELETE', url: `/api/subscriptions/${SUBSCRIPTION.id}` }),
    ]);
    expect(screen.queryByTestId('subscription-cancel')).toBeNull();
    expect(screen.queryByTestId('subscription-deactivate')).toBeNull();
    expect(screen.getByTestId('subscription-detail-next-payment')).toHaveTextContent(
      translate('he', 'subscription.noNextPayment'),
    );
  });

  it('changes the password without ever showing the old one, checked first', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockDetailApi({ change: () => jsonResponse(204) });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByTestId('subscription-change-password'));
    const dialog = await screen.findByTestId('change-password-dialog');
    expect(within(dialog).queryByTestId('change-password-login')).toBeNull();
    expect(screen.getByTestId('change-password-password')).toHaveValue('');
    await fillCredentials(user, 'change-password', { password: 'new pass', confirmPassword: 'new pas' });
    expect(within(dialog).getByText('The passwords do not match')).toBeInTheDocument();
    await fillCredentials(user, 'change-password', { password: 'new pass' });

    expect(await screen.findByTestId('toast')).toHaveTextContent('Password changed');
    expect(changes(calls)).toEqual([
      expect.objectContaining({
        method: 'PUT',
        url: `/api/subscriptions/${SUBSCRIPTION.id}/password`,
        body: { password: 'new pass' },
      }),
    ]);
  });

  it('changes the login, and shows a login the streaming service already has beside the field', async () => {
    signInAs();
    const answers = [errorResponse(409, 'error.login.already.exists'), jsonResponse(200, SUBSCRIPTION)];
    const { calls } = mockDetailApi({ change: () => answers.shift() ?? jsonResponse(200, SUBSCRIPTION) });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByTestId('subscription-change-login'));
    const dialog = await screen.findByTestId('change-login-dialog');
    await fillCredentials(user, 'change-login', { login: 'taken.login' });
    expect(await within(dialog).findByText(formatErrorMessage('error.login.already.exists', 'he'))).toBeInTheDocument();
    await fillCredentials(user, 'change-login', { login: 'free.login' });
    await waitFor(() => expect(screen.queryByTestId('change-login-dialog')).toBeNull());
    expect(changes(calls).map((call) => call.body)).toEqual([{ login: 'taken.login' }, { login: 'free.login' }]);
  });

  it('renews with the balance after a confirmation naming the price, or says what is missing', async () => {
    signInAs();
    let balance = 10;
    const { calls } = mockDetailApi({ user: () => ({ balance }) });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByTestId('subscription-renew'));
    const dialog = await screen.findByTestId('renew-dialog');
    // The package's $20 less the client's 10 %.
    await waitFor(() =>
      expect(within(dialog).getByTestId('renew-price').querySelector('bdi')?.textContent).toBe(formatDollars(18, 'he')),
    );
    // The balance cannot renew it, so the dialog starts on a crypto deposit.
    expect(await within(dialog).findByTestId('renew-crypto')).toBeInTheDocument();
    expect(within(dialog).getByTestId('renew-pay-crypto')).toBeChecked();
    expect(within(dialog).getByTestId('renew-confirm')).toHaveTextContent(
      translate('he', 'subscription.renewCrypto.submit'),
    );
    // Picking the balance says what is missing and how to top it up, and renewing from it waits for that.
    await user.click(within(dialog).getByTestId('renew-pay-balance'));
    const shortfall = await within(dialog).findByTestId('renew-shortfall');
    expect(within(shortfall).getByTestId('renew-shortfall-missing').textContent).toBe(formatDollars(8, 'he'));
    expect(within(shortfall).getByTestId('renew-shortfall-top-up')).toHaveAttribute('href', TOP_UP_PATH);
    expect(within(dialog).getByTestId('renew-confirm')).toBeDisabled();
    expect(within(dialog).queryByTestId('renew-crypto')).toBeNull();
    await user.click(within(dialog).getByTestId('renew-cancel'));
    await waitFor(() => expect(screen.queryByTestId('renew-dialog')).toBeNull());

    balance = 50;
    await user.click(screen.getByTestId('subscription-renew'));
    const again = await screen.findByTestId('renew-dialog');
    await waitFor(() => expect(within(again).getByTestId('renew-pay-balance')).toBeChecked());
    expect(within(again).queryByTestId('renew-shortfall')).toBeNull();
    await user.click(within(again).getByTestId('renew-confirm'));

    expect(await screen.findByTestId('toast')).toHaveTextContent(translate('he', 'subscription.renewed'));
    expect(changes(calls)).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api/subscriptions/renew/balance',
        body: { subscriptionId: SUBSCRIPTION.id },
      }),
    ]);
  });

  it('renews with a promo code: the dialog shows the quoted price and the renewal carries the code (ADR 0088)', async () => {
    signInAs();
    const { calls } = mockDetailApi({ user: () => ({ balance: 50 }) });
    const user = userEvent.setup();
    renderApp(PATH);

    const renew = await screen.findByTestId('subscription-renew');
    await waitFor(() => expect(renew.className).toMatch(/contained/));
    await user.click(renew);
    const dialog = await screen.findByTestId('renew-dialog');
    await user.type(within(dialog).getByTestId('renew-promo-input'), 'loyal');
    await user.click(within(dialog).getByTestId('renew-promo-apply'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('renew-price')).toHaveTextContent(formatDollars(12, 'he').replace(/\s/g, ' ')),
    );
    expect(calls.find((call) => call.url.startsWith('/api/promo-codes/quote?'))?.url).toContain(
      `subscriptionId=${SUBSCRIPTION.id}`,
    );
    await user.click(within(dialog).getByTestId('renew-confirm'));
    expect(await screen.findByTestId('toast')).toHaveTextContent(translate('he', 'subscription.renewed'));
    expect(changes(calls)).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api/subscriptions/renew/balance',
        body: { subscriptionId: SUBSCRIPTION.id, promoCode: 'LOYAL' },
      }),
    ]);
  });

  it('renews by a crypto deposit where the balance is short, and shows the invoice that will renew it', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockDetailApi({ user: () => ({ balance: 10 }) });
    const user = userEvent.setup();
    const { history } = renderApp(PATH);

    await user.click(await screen.findByTestId('subscription-renew'));
    const dialog = await screen.findByTestId('renew-dialog');
    expect(await within(dialog).findByTestId('renew-crypto')).toHaveTextContent(
      `You can renew by crypto: an invoice for ${formatDollars(18, 'en')} opens`,
    );
    await user.click(within(dialog).getByTestId('renew-confirm'));

    await waitFor(() => expect(history.location.pathname).toBe(TOP_UP_PATH), { timeout: 15_000 });
    expect(calls.find((call) => call.url === '/api/payments/crypto/deposit-and-renew-subscription')).toMatchObject({
      method: 'POST',
      body: { subscriptionId: SUBSCRIPTION.id, method: 'CRYPTO_USDT_TRC20', amount: 18 },
    });
    expect(calls.some((call) => call.url === '/api/subscriptions/renew/balance')).toBe(false);
    expect(await screen.findByTestId('crypto-purchase', {}, { timeout: 15_000 })).toHaveTextContent(
      'Once the money arrives, your subscription to \u2068Monthly HD\u2069 renews by itself.',
    );
  }, 40_000);

  it('offers renewing by crypto with a balance that is enough, asking the discounted price plus the debt', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    let balance = 50;
    const { calls } = mockDetailApi({ user: () => ({ balance }) });
    const user = userEvent.setup();
    const { history } = renderApp(PATH);

    const renew = await screen.findByTestId('subscription-renew');
    await waitFor(() => expect(renew.className).toMatch(/contained/));
    await user.click(renew);
    const dialog = await screen.findByTestId('renew-dialog');
    // The balance is enough, so the dialog starts on it; crypto is one click away.
    await waitFor(() => expect(within(dialog).getByTestId('renew-pay-balance')).toBeChecked());
    expect(within(dialog).queryByTestId('renew-crypto')).toBeNull();
    await user.click(within(dialog).getByTestId('renew-pay-crypto'));
    // The package's $20 less the client's 10 %: nothing of the balance is spent, no debt to add.
    expect(await within(dialog).findByTestId('renew-crypto')).toHaveTextContent(
      `an invoice for ${formatDollars(18, 'en')} opens`,
    );
    expect(within(dialog).queryByTestId('renew-crypto-debt')).toBeNull();
    expect(within(dialog).getByTestId('renew-balance')).not.toHaveTextContent('after renewing');
    expect(within(dialog).getByTestId('renew-confirm')).toHaveTextContent('Deposit and renew');
    await user.click(within(dialog).getByTestId('renew-cancel'));
    await waitFor(() => expect(screen.queryByTestId('renew-dialog')).toBeNull());

    // A balance of −$7 owes money: the deposit asks the $18 plus the $7 the money pays first.
    balance = -7;
    await user.click(screen.getByTestId('subscription-renew'));
    const again = await screen.findByTestId('renew-dialog');
    await waitFor(() => expect(within(again).getByTestId('renew-pay-crypto')).toBeChecked());
    expect(within(again).getByTestId('renew-crypto')).toHaveTextContent(`an invoice for ${formatDollars(25, 'en')}`);
    expect(within(again).getByTestId('renew-crypto-debt')).toHaveTextContent(formatDollars(7, 'en'));
    await user.click(within(again).getByTestId('renew-confirm'));
    await waitFor(() => expect(history.location.pathname).toBe(TOP_UP_PATH), { timeout: 15_000 });
    expect(changes(calls)).toEqual([
      expect.objectContaining({
        url: '/api/payments/crypto/deposit-and-renew-subscription',
        body: { subscriptionId: SUBSCRIPTION.id, method: 'CRYPTO_USDT_TRC20', amount: 25 },
      }),
    ]);
  }, 40_000);

  it('shows the refusal when renewing now asks another amount than the one shown', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const { calls } = mockDetailApi({
      user: () => ({ balance: 10 }),
      depositAndRenew: () =>
        jsonResponse(409, {
          status: 409,
          error: 'error.renewal.amount.changed',
          message: 'error.renewal.amount.changed',
          details: { amount: 20 },
        }),
    });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByTestId('subscription-renew'));
    const dialog = await screen.findByTestId('renew-dialog');
    await within(dialog).findByTestId('renew-crypto');
    await user.click(within(dialog).getByTestId('renew-confirm'));
    expect(await within(dialog).findByTestId('renew-error')).toHaveTextContent(
      formatErrorMessage('error.renewal.amount.changed', 'en', { amount: 20 }),
    );
    expect(calls.filter((call) => call.url === '/api/payments/crypto/deposit-and-renew-subscription')).toHaveLength(1);
  });

  it('where the deployment has no crypto cashier and the balance is short, disables Renew up front and says why', async () => {
    signInAs();
    const { calls } = mockDetailApi({ user: () => ({ balance: -10 }), cryptoDepositAvailable: false });
    renderApp(PATH);

    // $18 after the discount against a balance of −$10: $28 missing, and only a top-up can make it up.
    const reason = await screen.findByTestId('subscription-renew-reason');
    await waitFor(() => expect(reason.textContent).toContain(formatDollars(28, 'he')));
    expect(reason).toHaveTextContent('יש להטעין אותה כדי לחדש');
    const renew = screen.getByTestId('subscription-renew');
    expect(renew).toBeDisabled();
    expect(renew).toHaveAttribute('aria-describedby', 'subscription-renew-reason');
    expect(renew.className).not.toMatch(/contained/);
    expect(changes(calls)).toEqual([]);
  });

  it('disables Renew while the subscription is already paid a full period ahead, saying when it opens', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const end = daysFromNow(45);
    const paidAhead = { ...SUBSCRIPTION, endDate: end.toISOString() };
    const { calls } = mockDetailApi({ current: () => paidAhead, user: () => ({ balance: -10 }) });
    renderApp(PATH);

    const reason = await screen.findByTestId('subscription-renew-reason');
    expect(reason).toHaveTextContent('Already paid a full period ahead: renewing opens after');
    expect(reason.textContent).toContain(formatDateTime(addCalendarMonths(end, -1).toISOString(), 'en'));
    expect(screen.getByTestId('subscription-renew')).toBeDisabled();
    expect(changes(calls)).toEqual([]);
  });

  it('shows in the renew dialog the new end date and the balance after renewing', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const end = daysFromNow(10);
    mockDetailApi({ current: () => ({ ...SUBSCRIPTION, endDate: end.toISOString() }), user: () => ({ balance: 50 }) });
    const user = userEvent.setup();
    renderApp(PATH);

    const renew = await screen.findByTestId('subscription-renew');
    await waitFor(() => expect(renew.className).toMatch(/contained/));
    expect(screen.queryByTestId('subscription-renew-reason')).toBeNull();
    await user.click(renew);
    const dialog = await screen.findByTestId('renew-dialog');
    // A period added to the current end, which is still ahead: no paid day is lost.
    expect((await within(dialog).findByTestId('renew-new-end')).textContent).toContain(
      formatDate(addCalendarMonths(end, 1).toISOString(), 'en'),
    );
    // $50 less the package's $20 less the client's 10 %.
    await waitFor(() =>
      expect(within(dialog).getByTestId('renew-balance')).toHaveTextContent(
        `after renewing: ${formatDollars(32, 'en')}`,
      ),
    );
  });

  it('shows a subscription in its grace window as paused awaiting payment, its login kept, and renews it from now', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const end = daysFromNow(-1);
    const graceEndsAt = daysFromNow(2);
    mockDetailApi({
      current: () => ({
        ...SUBSCRIPTION,
        status: 'GRACE',
        endDate: end.toISOString(),
        graceEndsAt: graceEndsAt.toISOString(),
      }),
      user: () => ({ balance: 50 }),
    });
    const user = userEvent.setup();
    renderApp(PATH);

    const notice = await screen.findByTestId('subscription-grace-notice');
    expect(notice).toHaveTextContent('Paused, awaiting payment');
    expect(notice).toHaveTextContent('dana.levi');
    expect(notice.textContent).toContain(formatDate(graceEndsAt.toISOString(), 'en'));
    expect(screen.getByTestId('subscription-detail-status')).toHaveTextContent('Paused, awaiting payment');
    expect(screen.getByTestId('subscription-detail-grace-ends').textContent).toContain(
      formatDate(graceEndsAt.toISOString(), 'en'),
    );
    // Neither cancelled nor switched off in the window, nor its login or password changed: the API refuses all four.
    expect(screen.queryByTestId('subscription-cancel')).toBeNull();
    expect(screen.queryByTestId('subscription-deactivate')).toBeNull();
    expect(screen.queryByTestId('subscription-change-login')).toBeNull();
    expect(screen.queryByTestId('subscription-change-password')).toBeNull();

    const renew = screen.getByTestId('subscription-renew');
    await waitFor(() => expect(renew.className).toMatch(/contained/));
    expect(screen.queryByTestId('subscription-renew-reason')).toBeNull();
    await user.click(renew);
    const dialog = await screen.findByTestId('renew-dialog');
    // The end passed: the new period counts from the payment, no free days.
    const newEnd = (await within(dialog).findByTestId('renew-new-end')).textContent;
    expect(newEnd).toContain(formatDate(addCalendarMonths(new Date(), 1).toISOString(), 'en'));
  });

  it('shows a cancelled subscription as cancelled, and resumes it before its end after a confirmation', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    const end = daysFromNow(10);
    let subscription: Subscription = {
      ...SUBSCRIPTION,
      endDate: end.toISOString(),
      cancelAtPeriodEnd: true,
      nextPaymentDate: null,
    };
    const { calls } = mockDetailApi({
      current: () => subscription,
      change: () => {
        subscription = { ...subscription, cancelAtPeriodEnd: false, nextPaymentDate: daysFromNow(7).toISOString() };
        return jsonResponse(200, subscription);
      },
    });
    const user = userEvent.setup();
    renderApp(PATH);

    const status = await screen.findByTestId('subscription-detail-status');
    expect(status).toHaveTextContent('Cancelled, active to end');
    expect(status).not.toHaveTextContent(/^Active$/);
    expect(screen.getByTestId('subscription-detail-recurrent')).toHaveTextContent(
      translate('en', 'subscription.recurrent.stopped'),
    );
    expect(screen.queryByTestId('subscription-renew')).toBeNull();

    await user.click(screen.getByTestId('subscription-resume'));
    expect(await screen.findByTestId('resume-subscription-text')).toHaveTextContent(
      'renews from your balance again before its end on',
    );
    await user.click(screen.getByTestId('resume-subscription-confirm'));

    expect(await screen.findByTestId('toast')).toHaveTextContent('Subscription resumed');
    await waitFor(() => expect(screen.getByTestId('subscription-detail-status')).toHaveTextContent(/^Active$/));
    expect(screen.getByTestId('subscription-detail-recurrent')).toHaveTextContent(
      translate('en', 'subscription.recurrent.yes'),
    );
    expect(screen.queryByTestId('subscription-cancel-notice')).toBeNull();
    expect(screen.queryByTestId('subscription-resume')).toBeNull();
    expect(changes(calls)).toEqual([
      expect.objectContaining({ method: 'POST', url: `/api/subscriptions/${SUBSCRIPTION.id}/resume` }),
    ]);
  });

  it('keeps the end date in the Hebrew resume dialog on one line, however the sentence wraps', async () => {
    useLangStore.getState().setLang('he');
    signInAs();
    const end = daysFromNow(10);
    mockDetailApi({
      current: () => ({ ...SUBSCRIPTION, endDate: end.toISOString(), cancelAtPeriodEnd: true, nextPaymentDate: null }),
    });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByTestId('subscription-resume'));
    const text = (await screen.findByTestId('resume-subscription-text')).textContent ?? '';
    // The date as Hebrew writes it ("29 בדצמ׳ 2026"): its day, month and year stand apart by no-break spaces only,
    // so the line cannot end after the month and leave the year to start the next one.
    const words = new Intl.DateTimeFormat('he-IL', { dateStyle: 'medium' }).format(end).split(' ');
    expect(words).toHaveLength(3);
    expect(text).toContain(words.join('\u00a0'));
    expect(text).not.toContain(words.join(' '));
  });

  it('offers no resumption once the end date of a cancelled subscription has passed', async () => {
    signInAs();
    mockDetailApi({
      current: () => ({ ...SUBSCRIPTION, endDate: daysFromNow(-1).toISOString(), cancelAtPeriodEnd: true }),
    });
    renderApp(PATH);

    expect(await screen.findByTestId('subscription-detail')).toBeInTheDocument();
    expect(screen.queryByTestId('subscription-resume')).toBeNull();
  });

  it('stops the automatic renewal after a confirmation that nothing more is charged', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    let subscription = SUBSCRIPTION;
    const { calls } = mockDetailApi({
      current: () => subscription,
      change: () => {
        subscription = { ...subscription, status: 'UNSUBSCRIBED', nextPaymentDate: null };
        return jsonResponse(204);
      },
    });
    const user = userEvent.setup();
    renderApp(PATH);

    await user.click(await screen.findByTestId('subscription-deactivate'));
    const text = await screen.findByTestId('deactivate-recurrent-text');
    expect(text).toHaveTextContent('There will be no further charges.');
    expect(text).toHaveTextContent('every recurrent subscription of yours on the Monthly HD package');
    await user.click(screen.getByTestId('deactivate-recurrent-confirm'));

    expect(await screen.findByTestId('subscription-unsubscribed-notice')).toHaveTextContent(
      'this subscription will not be charged again',
    );
    // The package stays recurrent; this subscription no longer renews, and says so.
    expect(screen.getByTestId('subscription-detail-recurrent')).toHaveTextContent('No, it was stopped');
    expect(screen.getByTestId('subscription-detail-recurrent')).not.toHaveTextContent('Yes');
    const [call] = changes(calls);
    expect(call).toMatchObject({ method: 'POST', body: undefined });
    expect(call.url).toBe(`/api/subscriptions/deactivate-recurrent?paymentPlanId=${SUBSCRIPTION.paymentPlan?.planId}`);
  });

  it('shows a trial with its rules, and offers neither cancelling it nor changing its login', async () => {
    signInAs();
    const trial = makeSubscription({ type: 'TRIAL_FOR_NEW_USERS', paymentPlan: null, isRecurrent: false, price: 0 });
    mockDetailApi({ current: () => trial });
    renderApp(PATH);

    expect(await screen.findByTestId('subscription-trial-notice')).toHaveTextContent(
      translate('he', 'trial.rule.loginFixed'),
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(translate('he', 'subscriptions.trial'));
    expect(screen.getByTestId('subscription-change-password')).toBeInTheDocument();
    for (const action of ['cancel', 'change-login', 'renew', 'deactivate']) {
      expect(screen.queryByTestId(`subscription-${action}`)).toBeNull();
    }
  });

  it('says a PENDING subscription is being set up, and asks again until it is active', async () => {
    signInAs();
    let reads = 0;
    const pending = makeSubscription({ status: 'PENDING', startDate: null, endDate: null, nextPaymentDate: null });
    const { calls } = mockDetailApi({
      current: () => {
        reads += 1;
        return reads < 2 ? pending : SUBSCRIPTION;
      },
    });
    renderApp(PATH);

    expect(await screen.findByTestId('subscription-pending')).toHaveTextContent(
      translate('he', 'subscription.pending'),
    );
    expect(screen.getByTestId('subscription-detail-status')).toHaveTextContent('ממתין');
    await waitFor(() => expect(screen.queryByTestId('subscription-pending')).toBeNull(), { timeout: 10_000 });
    expect(screen.getByTestId('subscription-detail-status')).toHaveTextContent('פעיל');
    expect(calls.filter((call) => call.url === `/api/subscriptions/${SUBSCRIPTION.id}`)).toHaveLength(2);
  });

  it('shows an unknown subscription as not found', async () => {
    signInAs();
    mockFetch(({ url }) =>
      url === '/api/users/me' ? jsonResponse(200, makeUser()) : errorResponse(404, 'error.subscription.not.found'),
    );
    renderApp('/subscriptions/unknown');
    expect(await screen.findByTestId('not-found')).toHaveTextContent(
      formatErrorMessage('error.subscription.not.found', 'he'),
    );
  });

  it('says a subscription was started with a day voucher, in both languages', async () => {
    const started: Subscription = { ...SUBSCRIPTION, price: 0, startedByVoucher: { days: 30, label: 'Winter fair' } };
    useLangStore.getState().setLang('en');
    signInAs();
    mockDetailApi({ current: () => started });
    const { unmount } = renderApp(PATH);
    expect(await screen.findByTestId('subscription-started-by-voucher')).toHaveTextContent(
      'Started with voucher Winter fair: 30 days, at no charge',
    );
    unmount();
    useLangStore.getState().setLang('he');
    renderApp(PATH);
    expect(await screen.findByTestId('subscription-started-by-voucher')).toHaveTextContent(
      'נפתח בשובר Winter fair: 30 ימים, ללא תשלום',
    );
  });

  it('lists the days added with their reason, never who added them, in both languages', async () => {
    const extended: Subscription = {
      ...SUBSCRIPTION,
      extensions: [
        {
          days: 2,
          reason: 'Outage on Sunday',
          source: 'STAFF',
          endDate: '2026-05-03T09:00:00.000Z',
          extendedAt: '2026-04-20T09:00:00.000Z',
        },
        {
          days: 30,
          reason: 'Summer 2026',
          source: 'VOUCHER',
          endDate: '2026-06-02T09:00:00.000Z',
          extendedAt: '2026-04-21T09:00:00.000Z',
        },
      ],
    };
    useLangStore.getState().setLang('en');
    signInAs();
    mockDetailApi({ current: () => extended });
    const { unmount } = renderApp(PATH);
    const rows = await screen.findAllByTestId('subscription-extension');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('+2 days: Outage on Sunday'),
      expect.stringContaining('+30 days: voucher Summer 2026'),
    ]);
    expect(screen.getByTestId('subscription-extensions')).toHaveTextContent('Days added');
    unmount();

    useLangStore.getState().setLang('he');
    renderApp(PATH);
    const hebrew = await screen.findAllByTestId('subscription-extension');
    expect(hebrew[0].textContent).toContain('+2 ימים: Outage on Sunday');
    expect(hebrew[1].textContent).toContain('+30 ימים: שובר Summer 2026');
  });

  it('shows no days-added section for a subscription nobody extended', async () => {
    signInAs();
    mockDetailApi({});
    renderApp(PATH);
    await screen.findByTestId('subscription-detail');
    expect(screen.queryByTestId('subscription-extensions')).toBeNull();
  });
});
