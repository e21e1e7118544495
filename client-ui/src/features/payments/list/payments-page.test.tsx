import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, type Payment, type PaymentSearchRequest } from '@kupa/proto';
import { formatDollars, formatSignedDollars } from '../../../lib/format';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import {
  jsonResponse,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  isDepositWatch,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../../test/render-app';

const ROWS: Payment[] = [
  makePayment({
    paymentId: 7,
    type: 'TRANSFER_OUT',
    method: 'BALANCE',
    aggregator: 'INTERNAL',
    amount: 12.5,
    status: 'SUCCESS',
  }),
  makePayment({
    paymentId: 6,
    type: 'DEPOSIT',
    method: 'CRYPTO_BTC',
    aggregator: 'CASHIER',
    amount: 100,
    status: 'PENDING',
  }),
];

function mockPaymentsApi(
  respond: (body: PaymentSearchRequest) => ReturnType<typeof pageOf<Payment>> = () => pageOf(ROWS, 0, 20, 2),
  balance?: number,
) {
  return mockFetch(({ url, body }) => {
    if (url === '/api/users/me') return jsonResponse(200, makeUser(balance === undefined ? {} : { balance }));
    if (url === '/api/payments/search') return jsonResponse(200, respond(body as PaymentSearchRequest));
    return jsonResponse(404, { status: 404, error: 'error.entity.not.found', message: '' });
  });
}

/** The list's searches, not the app-wide watch of pending deposits. */
const searches = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url === '/api/payments/search' && !isDepositWatch(call));
const lastSearch = (calls: RecordedCall[]) => searches(calls).at(-1)?.body as PaymentSearchRequest;

/** Builds a list URL the way the router writes one: plain text as is, everything else as JSON. */
function paymentsUrl(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search))
    params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  return `/payments?${params.toString()}`;
}

describe('payments list', () => {
  it('asks the server with the filters, sorts and paging from the URL and shows them in the filter bar', async () => {
    signInAs();
    const { calls } = mockPaymentsApi((body) => pageOf(ROWS, body.page, body.size, 250));
    renderApp(
      paymentsUrl({
        page: 2,
        size: 50,
        sorts: [{ id: 'amount', desc: false }],
        keyWord: 'netflix',
        id: 42,
        statuses: ['SUCCESS', 'PENDING', 'NOT_A_STATUS'],
        types: ['TRANSFER_OUT'],
        methods: ['BALANCE'],
        aggregators: ['INTERNAL'],
        createdDate: { from: '2026-01-01', to: '2026-01-31' },
      }),
    );

    await screen.findAllByTestId('payments-row');
    expect(lastSearch(calls)).toEqual({
      page: 2,
      size: 50,
      sorts: [{ id: 'amount', desc: false }],
      keyWord: 'netflix',
      id: 42,
      statuses: ['SUCCESS', 'PENDING'],
      types: ['TRANSFER_OUT'],
      methods: ['BALANCE'],
      aggregators: ['INTERNAL'],
      // A calendar day runs from its first to its last instant in the browser's time zone.
      createdDate: {
        from: new Date(2026, 0, 1).toISOString(),
        to: new Date(2026, 0, 31, 23, 59, 59, 999).toISOString(),
      },
    });
    expect(screen.getByTestId('payments-filter-keyword')).toHaveValue('netflix');
    expect(screen.getByTestId('payments-filter-id')).toHaveValue('42');
    expect(screen.getByTestId('payments-filter-statuses')).toHaveTextContent('הצליח, ממתין');
    expect(screen.getByTestId('payments-filter-from')).toHaveAttribute('data-value', '2026-01-01');
    expect(screen.getByTestId('payments-filter-to')).toHaveAttribute('data-value', '2026-01-31');
    expect(screen.getByTestId('payments-sort-amount').closest('th')).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByTestId('payments-pagination')).toHaveTextContent('101–150 מתוך 250');
  });

  it('offers Transfer as the primary action only with money to send; at $0 and below, Deposit, with the reason', async () => {
    signInAs();
    mockPaymentsApi(undefined, 1234.5);
    const first = renderApp('/payments');
    await waitFor(() => expect(screen.getByTestId('transfer-open').className).toMatch(/contained/));
    expect(screen.getByTestId('transfer-open')).toHaveAttribute('href', '/payments/transfer');
    expect(screen.queryByTestId('transfer-unavailable-reason')).toBeNull();
    first.unmount();

    for (const balance of [0, -10]) {
      mockPaymentsApi(undefined, balance);
      const { unmount } = renderApp('/payments');
      const reason = await screen.findByTestId('transfer-unavailable-reason');
      expect(reason.textContent).toContain(formatDollars(balance, 'he'));
      const transfer = screen.getByTestId('transfer-open');
      expect(transfer).toBeDisabled();
      expect(transfer).not.toHaveAttribute('href');
      expect(transfer).toHaveAttribute('aria-describedby', 'transfer-unavailable-reason');
      expect(screen.getByTestId('deposit-open').className).toMatch(/contained/);
      unmount();
    }
  });

  it('without search params asks for the first page, newest first', async () => {
    signInAs();
    const { calls } = mockPaymentsApi();
    renderApp('/payments');
    await screen.findAllByTestId('payments-row');
    expect(lastSearch(calls)).toEqual({ page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }] });
    expect(screen.getByTestId('payments-sort-createdAt').closest('th')).toHaveAttribute('aria-sort', 'descending');
  });

  it('renders rows in Hebrew with signed amounts isolated, and links each row to its detail', async () => {
    signInAs();
    mockPaymentsApi();
    renderApp('/payments');
    const rows = await screen.findAllByTestId('payments-row');
    expect(rows.map((row) => row.getAttribute('data-payment-id'))).toEqual(['7', '6']);

    const [transfer, deposit] = rows;
    expect(within(transfer).getByTestId('payments-row-type')).toHaveTextContent('העברה יוצאת');
    expect(within(transfer).getByTestId('payments-row-method')).toHaveTextContent('יתרה');
    expect(within(transfer).getByTestId('payments-row-status')).toHaveTextContent('הצליח');
    // Compared as raw text: the Hebrew format holds direction marks and a no-break space that matchers normalise.
    expect(within(transfer).getByTestId('payments-row-amount').querySelector('bdi')?.textContent).toBe(
      formatSignedDollars(-12.5, 'he'),
    );
    expect(within(deposit).getByTestId('payments-row-type')).toHaveTextContent('הפקדה');
    expect(within(deposit).getByTestId('payments-row-status')).toHaveTextContent('ממתין');
    expect(within(deposit).getByTestId('payments-row-amount').querySelector('bdi')?.textContent).toBe(
      formatSignedDollars(100, 'he'),
    );
    expect(within(transfer).getByRole('link', { name: 'פתיחת תשלום מספר 7' })).toHaveAttribute('href', '/payments/7');
    expect(screen.getByTestId('nav-payments')).toHaveAttribute('aria-current', 'page');
  });

  it('colours amounts by direction and status badges by meaning, and never shows a failed payment as money in', async () => {
    signInAs();
    const failed = makePayment({ paymentId: 5, type: 'DEPOSIT', amount: 30, status: 'FAILED' });
    const refunded = makePayment({ paymentId: 4, type: 'TRANSFER_IN', amount: 8, status: 'REFUNDED' });
    const received = makePayment({ paymentId: 3, type: 'TRANSFER_IN', amount: 9, status: 'SUCCESS' });
    mockPaymentsApi(() => pageOf([...ROWS, failed, refunded, received], 0, 20, 5));
    renderApp('/payments');
    const rows = await screen.findAllByTestId('payments-row');
    const look = (row: HTMLElement) => {
      const amount = within(row).getByTestId('payments-row-amount').querySelector('bdi') as HTMLElement;
      const chip = within(row).getByTestId('payments-row-status').querySelector('.MuiChip-root') as HTMLElement;
      return {
        intent: amount.getAttribute('data-intent'),
        state: amount.getAttribute('data-state'),
        struck: getComputedStyle(amount).textDecoration.includes('line-through'),
        badge: chip.getAttribute('data-intent'),
      };
    };
    expect(rows.map(look)).toEqual([
      { intent: 'error', state: 'moved', struck: false, badge: 'success' },
      { intent: 'neutral', state: 'pending', struck: false, badge: 'warning' },
      { intent: 'neutral', state: 'void', struck: true, badge: 'error' },
      { intent: 'neutral', state: 'void', struck: true, badge: 'neutral' },
      { intent: 'success', state: 'moved', struck: false, badge: 'success' },
    ]);
    // The meaning is in the badge's border and dot; its words keep the text colour, readable on a light page.
    const labelColours = rows.map(
      (row) =>
        getComputedStyle(within(row).getByTestId('payments-row-status').querySelector('.MuiChip-label') as HTMLElement)
          .color,
    );
    expect(new Set(labelColours).size).toBe(1);
    const [, , failedRow, , receivedRow] = rows;
    const colour = (row: HTMLElement) =>
      getComputedStyle(within(row).getByTestId('payments-row-amount').querySelector('bdi') as HTMLElement).color;
    expect(colour(failedRow)).not.toBe(colour(receivedRow));
    // A screen reader hears that the failed deposit is not in the balance.
    expect(within(failedRow).getByTestId('payments-row-amount')).toHaveTextContent('לא נכלל ביתרה');
    expect(screen.queryByTestId('negative-balance-notice')).not.toBeInTheDocument();
  });

  it('sets an ambassador bonus apart from the deposit that earned it, in Hebrew and English', async () => {
    signInAs();
    const deposit = makePayment({ paymentId: 11, type: 'DEPOSIT', amount: 200, bonusPaymentId: 12 });
    const bonus = makePayment({
      paymentId: 12,
      type: 'AMBASSADOR_BONUS',
      method: 'BALANCE',
      aggregator: 'INTERNAL',
      amount: 20,
      bonusForPaymentId: 11,
    });
    mockPaymentsApi(() => pageOf([bonus, deposit], 0, 20, 2));
    renderApp('/payments');
    const [bonusRow, depositRow] = await screen.findAllByTestId('payments-row');
    const amountOf = (row: HTMLElement) => within(row).getByTestId('payments-row-amount');
    const bdiOf = (row: HTMLElement) => amountOf(row).querySelector('bdi') as HTMLElement;
    expect(bdiOf(bonusRow)).toHaveAttribute('data-intent', 'bonus');
    expect(bdiOf(depositRow)).toHaveAttribute('data-intent', 'success');
    expect(getComputedStyle(bdiOf(bonusRow)).color).not.toBe(getComputedStyle(bdiOf(depositRow)).color);
    expect(within(amountOf(bonusRow)).getByTestId('payment-bonus-mark')).toHaveTextContent('בונוס');
    expect(within(amountOf(depositRow)).queryByTestId('payment-bonus-mark')).toBeNull();
    expect(within(bonusRow).getByTestId('payments-row-type')).toHaveTextContent('בונוס שגריר');

    useLangStore.getState().setLang('en');
    expect(await within(amountOf(bonusRow)).findByText('Bonus')).toBeInTheDocument();
    expect(amountOf(bonusRow)).toHaveTextContent('+$20.00');
  });

  it('names the promo code and its discount on the payment that used one, in Hebrew and English', async () => {
    const withCode = makePayment({
      paymentId: 9,
      type: 'SUBSCRIPTION_PAYMENT',
      method: 'BALANCE',
      aggregator: 'INTERNAL_BALANCE',
      amount: 7.5,
      status: 'SUCCESS',
      promoCode: { code: 'SPRING25', discount: 2.5 },
    });
    signInAs();
    mockPaymentsApi(() => pageOf([withCode, ROWS[0]], 0, 20, 2));
    const hebrew = renderApp('/payments');
    const rows = await screen.findAllByTestId('payments-row');
    const line = within(rows[0]).getByTestId('payments-row-promo-code');
    expect(line).toHaveTextContent('קוד SPRING25: הנחה של');
    expect(line.textContent).toContain(formatDollars(2.5, 'he'));
    expect(within(rows[1]).queryByTestId('payments-row-promo-code')).not.toBeInTheDocument();
    hebrew.unmount();

    useLangStore.getState().setLang('en');
    renderApp('/payments');
    const english = await screen.findAllByTestId('payments-row');
    expect(within(english[0]).getByTestId('payments-row-promo-code')).toHaveTextContent(
      `Code SPRING25: ${formatDollars(2.5, 'en')} off`,
    );
  });

  it('renders the same rows with English labels', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockPaymentsApi();
    renderApp('/payments');
    const [transfer, deposit] = await screen.findAllByTestId('payments-row');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payments');
    expect(within(transfer).getByTestId('payments-row-type')).toHaveTextContent('Transfer out');
    expect(within(transfer).getByTestId('payments-row-method')).toHaveTextContent('Balance');
    expect(within(transfer).getByTestId('payments-row-amount')).toHaveTextContent('-$12.50');
    expect(within(deposit).getByTestId('payments-row-method')).toHaveTextContent('Bitcoin');
    expect(within(deposit).getByTestId('payments-row-status')).toHaveTextContent('Pending');
    expect(within(deposit).getByTestId('payments-row-amount')).toHaveTextContent('+$100.00');
    expect(screen.getByRole('columnheader', { name: 'Payment method' })).toBeInTheDocument();
  });

  it('puts a sort, a page, typed filters and chosen statuses into the URL and asks again', async () => {
    signInAs();
    const { calls } = mockPaymentsApi((body) => pageOf(ROWS, body.page, body.size, 45));
    const user = userEvent.setup();
    const { history } = renderApp('/payments');
    await screen.findAllByTestId('payments-row');

    await user.click(screen.getByTestId('payments-sort-amount'));
    await waitFor(() => expect(lastSearch(calls).sorts).toEqual([{ id: 'amount', desc: true }]));
    await user.click(screen.getByTestId('payments-sort-amount'));
    await waitFor(() => expect(lastSearch(calls).sorts).toEqual([{ id: 'amount', desc: false }]));

    await user.click(screen.getByTestId('payments-page-next'));
    await waitFor(() => expect(lastSearch(calls).page).toBe(1));
    expect(history.location.search).toContain('page=1');

    // The id filter takes whole numbers only, checked before anything is sent.
    const before = searches(calls).length;
    await user.type(screen.getByTestId('payments-filter-id'), '4.5');
    await user.click(screen.getByTestId('payments-filter-apply'));
    expect(screen.getByText(formatErrorMessage('error.validation.integer', 'he'))).toBeInTheDocument();
    expect(searches(calls)).toHaveLength(before);

    await user.clear(screen.getByTestId('payments-filter-id'));
    await user.type(screen.getByTestId('payments-filter-id'), '45');
    await user.type(screen.getByTestId('payments-filter-keyword'), 'dana{Enter}');
    await waitFor(() => expect(lastSearch(calls)).toMatchObject({ id: 45, keyWord: 'dana', page: 0 }));

    await user.click(screen.getByTestId('payments-filter-statuses'));
    await user.click(await screen.findByTestId('payments-filter-statuses-FAILED'));
    await waitFor(() => expect(lastSearch(calls).statuses).toEqual(['FAILED']));
    expect(lastSearch(calls)).toMatchObject({ id: 45, keyWord: 'dana', sorts: [{ id: 'amount', desc: false }] });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());

    // Clearing keeps the sort; that list was asked for a moment ago, so it comes from the cache, fresh for 60 s.
    await user.click(screen.getByTestId('payments-filter-reset'));
    await waitFor(() => expect(new URLSearchParams(history.location.search).get('keyWord')).toBeNull());
    expect(Object.fromEntries(new URLSearchParams(history.location.search))).toEqual({
      sorts: JSON.stringify([{ id: 'amount', desc: false }]),
    });
    expect(screen.getByTestId('payments-filter-keyword')).toHaveValue('');
  });

  it('shows the empty state, and says so differently when filters hide everything', async () => {
    signInAs();
    mockPaymentsApi(() => pageOf([], 0, 20, 0));
    const first = renderApp('/payments');
    expect(await screen.findByTestId('empty-state')).toHaveTextContent(translate('he', 'payments.empty'));
    expect(screen.getByTestId('transfer-open')).toHaveAttribute('href', '/payments/transfer');
    expect(screen.getByTestId('deposit-open')).toHaveAttribute('href', '/payments/deposit');
    first.unmount();

    renderApp(paymentsUrl({ types: ['REFUND'] }));
    expect(await screen.findByTestId('empty-state')).toHaveTextContent(translate('he', 'payments.emptyFiltered'));
  });

  describe('on a phone', () => {
    beforeEach(() => {
      // Narrower than the medium breakpoint: MUI's `down('md')` asks for a max-width, a phone answers yes.
      const wideMatchMedia = window.matchMedia;
      vi.spyOn(window, 'matchMedia').mockImplementation(
        (query: string) => ({ ...wideMatchMedia(query), matches: query.includes('max-width') }) as MediaQueryList,
      );
    });

    it('shows each payment as a card, amount and status first, linking to its detail; the filters fold away', async () => {
      signInAs();
      const { calls } = mockPaymentsApi();
      const user = userEvent.setup();
      renderApp('/payments');

      const cards = await screen.findAllByTestId('payments-row');
      expect(screen.queryByTestId('payments-table')).not.toBeInTheDocument();
      expect(cards.map((card) => card.dataset.paymentId)).toEqual(['7', '6']);
      const [transfer] = cards;
      const firstTexts = [
        within(transfer).getByTestId('payments-row-amount'),
        within(transfer).getByTestId('payments-row-status'),
        within(transfer).getByTestId('payments-row-type'),
      ];
      expect(firstTexts.map((element) => element.textContent)).toEqual([
        formatSignedDollars(-12.5, 'he'),
        'הצליח',
        'העברה יוצאת',
      ]);
      // Amount and status come before everything else the card says.
      expect(transfer.textContent?.indexOf(formatSignedDollars(-12.5, 'he'))).toBe(0);
      expect(within(transfer).getByTestId('payments-row-link')).toHaveAttribute('href', '/payments/7');

      const toggle = screen.getByTestId('payments-filters-toggle');
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      // Folded, the form is not even rendered: the page's first render on a phone is lighter for it.
      expect(screen.queryByTestId('payments-filter-keyword')).toBeNull();
      expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')).not.toBeNull();
      await user.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      await waitFor(() => expect(screen.getByTestId('payments-filter-keyword')).toBeVisible());
      await user.type(screen.getByTestId('payments-filter-keyword'), 'dana{Enter}');
      await waitFor(() => expect(lastSearch(calls)).toMatchObject({ keyWord: 'dana', page: 0 }));
    });
  });
});
