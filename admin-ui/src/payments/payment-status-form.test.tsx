import { enumLabel, formatErrorMessage, LIMITS } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRouterProvider } from 'react-admin';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatAmount } from '../shared/money';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { PaymentShow } from './payment-show';
import { PaymentStatusForm } from './payment-status-form';

const manualPayment = {
  id: 42,
  paymentId: 42,
  userUuid: 'u-1',
  userEmail: 'dana@example.com',
  amount: 20,
  currency: 'USD',
  status: 'SUCCESS',
  method: 'MANUAL_TRANSFER',
  type: 'DEPOSIT',
  aggregator: 'MANUAL',
  comment: null,
};

function renderForm(record: typeof manualPayment = manualPayment) {
  return renderInAdmin(<PaymentStatusForm />, { resource: 'payments', record });
}

beforeEach(() => signInAs('ADMIN'));

function PaymentRoute() {
  const { Routes, Route } = useRouterProvider();
  return (
    <Routes>
      <Route path="/admin/payments/:id/show" element={<PaymentShow />} />
    </Routes>
  );
}

/** A request that never answers: what the page shows meanwhile can only come from what it already holds. */
const unanswered = () => new Promise<Response>(() => undefined);

describe('payment status change', () => {
  it('asks for confirmation naming the resulting balance on the 409, then resends with confirmNegativeBalance', async () => {
    const { calls } = mockFetch({
      'PUT /api/payments/42/status': [
        () =>
          json(409, {
            status: 409,
            error: 'error.balance.negative.confirmation.required',
            message: 'This change leaves the balance negative',
            details: { resultingBalance: -12.5 },
          }),
        () => json(200, { ...manualPayment, status: 'REJECTED' }),
      ],
    });
    const user = userEvent.setup();
    renderForm();

    expect(screen.getByTestId('payment-status-save')).toBeDisabled();
    await user.selectOptions(screen.getByTestId('payment-status-select'), 'REJECTED');
    await user.click(screen.getByTestId('payment-status-save'));

    const amount = await screen.findByTestId('negative-balance-amount');
    expect(amount).toHaveAttribute('data-amount', '-12.5');
    expect(amount.textContent).toBe(formatAmount(-12.5, 'he'));
    expect(amount.tagName).toBe('BDI');
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ status: 'REJECTED' });

    await user.click(screen.getByTestId('negative-balance-confirm'));

    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toMatchObject({
      method: 'PUT',
      url: '/api/payments/42/status',
      body: { status: 'REJECTED', confirmNegativeBalance: true },
    });
    await waitFor(() => expect(screen.queryByTestId('negative-balance-dialog')).toBeNull());
  });

  it('sends nothing more when the confirmation is cancelled', async () => {
    const { calls } = mockFetch({
      'PUT /api/payments/42/status': () =>
        json(409, {
          status: 409,
          error: 'error.balance.negative.confirmation.required',
          details: { resultingBalance: -3 },
        }),
    });
    const user = userEvent.setup();
    renderForm();

    await user.selectOptions(screen.getByTestId('payment-status-select'), 'FAILED');
    await user.click(screen.getByTestId('payment-status-save'));
    await user.click(await screen.findByTestId('negative-balance-cancel'));

    await waitFor(() => expect(screen.queryByTestId('negative-balance-dialog')).toBeNull());
    expect(calls).toHaveLength(1);
  });

  it('sends the note for the client with the change, also when the change is confirmed', async () => {
    const { calls } = mockFetch({
      'PUT /api/payments/42/status': [
        () =>
          json(409, {
            status: 409,
            error: 'error.balance.negative.confirmation.required',
            details: { resultingBalance: -1 },
          }),
        () => json(200, { ...manualPayment, status: 'FAILED', publicNote: 'The bank returned it' }),
      ],
    });
    const user = userEvent.setup();
    renderForm();

    await user.selectOptions(screen.getByTestId('payment-status-select'), 'FAILED');
    await user.click(screen.getByTestId('payment-status-public-note'));
    await user.paste('  The bank returned it  ');
    await user.click(screen.getByTestId('payment-status-save'));
    await user.click(await screen.findByTestId('negative-balance-confirm'));

    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((call) => call.body)).toEqual([
      { status: 'FAILED', publicNote: 'The bank returned it' },
      { status: 'FAILED', confirmNegativeBalance: true, publicNote: 'The bank returned it' },
    ]);
  });

  it('shows the message the client sees now and keeps it when the note is left empty', async () => {
    const shown = 'Sent from an account not in your name';
    const { calls } = mockFetch({
      'PUT /api/payments/42/status': () => json(200, { ...manualPayment, status: 'REJECTED', publicNote: shown }),
    });
    const user = userEvent.setup();
    renderForm({ ...manualPayment, publicNote: shown } as typeof manualPayment);

    expect(screen.getByTestId('payment-status-current-note')).toHaveTextContent(shown);
    expect(screen.getByText(/ימשיך לראות את ההודעה/)).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('payment-status-select'), 'REJECTED');
    await user.click(screen.getByTestId('payment-status-save'));

    // No note field in the body: the API keeps what the client was shown rather than erasing it.
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].body).toEqual({ status: 'REJECTED' });
  });

  it('refuses a note for the client over the limit with the catalogue message and sends nothing', async () => {
    const { calls } = mockFetch({});
    const user = userEvent.setup();
    renderForm();

    await user.selectOptions(screen.getByTestId('payment-status-select'), 'FAILED');
    const note = screen.getByTestId('payment-status-public-note');
    await user.click(note);
    await user.paste('א'.repeat(LIMITS.publicNoteMaxLength + 1));
    await user.click(screen.getByTestId('payment-status-save'));

    const message = formatErrorMessage('error.validation.max.length', 'he', { max: LIMITS.publicNoteMaxLength });
    expect(await screen.findByText(message)).toBeVisible();
    expect(note).toHaveValue('א'.repeat(LIMITS.publicNoteMaxLength + 1));
    expect(calls).toHaveLength(0);
  });

  it('is disabled with the catalogue explanation for a payment that is not manual', () => {
    mockFetch({});
    renderForm({ ...manualPayment, aggregator: 'CASHIER', method: 'CRYPTO_BTC' });

    expect(screen.getByTestId('payment-status-select')).toBeDisabled();
    expect(screen.getByTestId('payment-status-save')).toBeDisabled();
    expect(screen.getByTestId('payment-status-manual-only')).toHaveTextContent(
      formatErrorMessage('error.payment.status.manual.only', 'he'),
    );
  });

  it('shows the new status on the detail page as soon as the confirmed change is answered', async () => {
    const { calls } = mockFetch({
      // The first read opens the page; the re-read after the change never answers.
      'GET /api/payments/42': [() => json(200, manualPayment), unanswered],
      'PUT /api/payments/42/status': [
        () =>
          json(409, {
            status: 409,
            error: 'error.balance.negative.confirmation.required',
            details: { resultingBalance: -5 },
          }),
        () => json(200, { ...manualPayment, status: 'REJECTED' }),
      ],
    });
    const user = userEvent.setup();
    renderInAdmin(<PaymentRoute />, { resource: 'payments', lang: 'en', path: '/admin/payments/42/show' });

    // The status field keeps the raw value in `data-value`; its label is in the page language.
    const statusField = () =>
      screen.getByTestId('payment-detail').querySelector('[data-value="SUCCESS"], [data-value="REJECTED"]');
    await waitFor(() => expect(statusField()).toHaveAttribute('data-value', 'SUCCESS'));
    expect(statusField()).toHaveTextContent(enumLabel('paymentStatus', 'SUCCESS', 'en'));
    await user.selectOptions(screen.getByTestId('payment-status-select'), 'REJECTED');
    await user.click(screen.getByTestId('payment-status-save'));
    await user.click(await screen.findByTestId('negative-balance-confirm'));

    await waitFor(() => expect(statusField()).toHaveAttribute('data-value', 'REJECTED'));
    expect(statusField()).toHaveTextContent(enumLabel('paymentStatus', 'REJECTED', 'en'));
    expect(screen.getByTestId('payment-status-select')).toHaveValue('REJECTED');
    expect(screen.getByTestId('payment-status-save')).toBeDisabled();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(2);
  });
});

describe('crypto deposit detail', () => {
  it('shows the cashier, its payment id and status, and the amounts asked and received', async () => {
    const cryptoDeposit = {
      ...manualPayment,
      amount: 83.25,
      method: 'CRYPTO_ETH',
      aggregator: 'CASHIER',
      cashier: {
        provider: 'SANDBOX',
        invoiceId: '4522625843',
        invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/4522625843',
        providerPaymentId: '5077125051',
        providerStatus: 'finished',
        payCurrency: 'eth',
        amountAsked: 80,
        amountReceived: 83.25,
        amountHeld: null,
      },
    };
    mockFetch({ 'GET /api/payments/42': [() => json(200, cryptoDeposit)] });
    renderInAdmin(<PaymentRoute />, { resource: 'payments', lang: 'en', path: '/admin/payments/42/show' });

    const cashier = await screen.findByTestId('payment-cashier');
    expect(screen.getByTestId('payment-cashier-provider')).toHaveTextContent('CashierSANDBOX');
    expect(screen.getByTestId('payment-cashier-providerPaymentId')).toHaveTextContent('5077125051');
    expect(screen.getByTestId('payment-cashier-providerStatus')).toHaveTextContent('Paid');
    expect(screen.getByTestId('payment-cashier-payCurrency')).toHaveTextContent('ETH');
    expect(screen.getByTestId('payment-cashier-amountAsked').querySelector('bdi')?.textContent).toBe(
      formatAmount(80, 'en'),
    );
    expect(screen.getByTestId('payment-cashier-amountReceived').querySelector('bdi')?.textContent).toBe(
      formatAmount(83.25, 'en'),
    );
    expect(cashier).toHaveTextContent('Amount received');
  });

  it('shows no cashier section on a manual payment', async () => {
    mockFetch({ 'GET /api/payments/42': [() => json(200, { ...manualPayment, cashier: null })] });
    renderInAdmin(<PaymentRoute />, { resource: 'payments', lang: 'en', path: '/admin/payments/42/show' });
    await screen.findByTestId('payment-detail');
    await waitFor(() => expect(screen.getByTestId('payment-amount')).toBeInTheDocument());
    expect(screen.queryByTestId('payment-cashier')).not.toBeInTheDocument();
  });
});

describe('card deposit detail', () => {
  const cardDeposit = {
    ...manualPayment,
    amount: 25,
    method: 'CARD',
    aggregator: 'STRIPE',
    cashier: null,
    card: {
      provider: 'STRIPE',
      checkoutSessionId: 'cs_test_a1b2c3',
      providerPaymentId: 'pi_test_d4e5f6',
      providerStatus: 'paid',
      amountAsked: 25,
      amountReceived: 25,
      reported: null,
    },
  };

  it('shows the card provider, its checkout and payment ids, the status, and the amounts asked and received', async () => {
    mockFetch({ 'GET /api/payments/42': [() => json(200, cardDeposit)] });
    renderInAdmin(<PaymentRoute />, { resource: 'payments', lang: 'en', path: '/admin/payments/42/show' });

    const card = await screen.findByTestId('payment-card');
    expect(screen.getByTestId('payment-card-provider')).toHaveTextContent('Card providerSTRIPE');
    expect(screen.getByTestId('payment-card-providerPaymentId')).toHaveTextContent('pi_test_d4e5f6');
    expect(screen.getByTestId('payment-card-checkoutSessionId')).toHaveTextContent('cs_test_a1b2c3');
    expect(screen.getByTestId('payment-card-providerStatus')).toHaveTextContent('Paid');
    expect(screen.getByTestId('payment-card-amountAsked').querySelector('bdi')?.textContent).toBe(
      formatAmount(25, 'en'),
    );
    expect(screen.getByTestId('payment-card-amountReceived').querySelector('bdi')?.textContent).toBe(
      formatAmount(25, 'en'),
    );
    expect(card).toHaveTextContent('Amount received');
    expect(screen.queryByTestId('payment-cashier')).not.toBeInTheDocument();
  });

  it('shows a checkout held for review with what was asked against what was reported, and lets staff close it', async () => {
    const held = {
      ...cardDeposit,
      status: 'REVIEW',
      card: { ...cardDeposit.card, amountReceived: 0, reported: { currency: 'eur', amount: 25 } },
    };
    mockFetch({ 'GET /api/payments/42': [() => json(200, held)] });
    renderInAdmin(<PaymentRoute />, { resource: 'payments', lang: 'en', path: '/admin/payments/42/show' });

    expect(await screen.findByTestId('payment-card-reported')).toHaveTextContent(
      'Reported by the card provider25.00 EUR',
    );
    expect(screen.getByTestId('payment-card-amountAsked').querySelector('bdi')?.textContent).toBe(
      formatAmount(25, 'en'),
    );
    // Staff close it without money: the held status and the closing ones only, never SUCCESS.
    const select = screen.getByTestId('payment-status-select');
    expect(select).toBeEnabled();
    const offered = [...select.querySelectorAll('option')].map((option) => option.getAttribute('value'));
    expect(offered).toEqual(['REVIEW', 'FAILED', 'REJECTED', 'REFUNDED']);
  });

  it('shows the dollars a crypto deposit held for review above the maximum, and offers to close it', async () => {
    const held = {
      ...manualPayment,
      amount: 800,
      status: 'REVIEW',
      method: 'CRYPTO_ETH',
      aggregator: 'CASHIER',
      card: null,
      cashier: {
        provider: 'SANDBOX',
        invoiceId: '4522625843',
        invoiceUrl: 'http://kupa.test/api/sandbox/cashier/invoices/4522625843',
        providerPaymentId: '5077125051',
        providerStatus: 'finished',
        payCurrency: 'eth',
        amountAsked: 800,
        amountReceived: 0,
        amountHeld: 5000,
      },
    };
    mockFetch({ 'GET /api/payments/42': [() => json(200, held)] });
    renderInAdmin(<PaymentRoute />, { resource: 'payments', lang: 'en', path: '/admin/payments/42/show' });

    const row = await screen.findByTestId('payment-cashier-amountHeld');
    expect(row).toHaveTextContent('Held for review (above the maximum)');
    expect(row.querySelector('bdi')?.textContent).toBe(formatAmount(5000, 'en'));
    expect(screen.getByTestId('payment-status-select')).toBeEnabled();
  });

  it('reads in Hebrew, with the ids left to right', async () => {
    mockFetch({
      'GET /api/payments/42': [
        () => json(200, { ...cardDeposit, card: { ...cardDeposit.card, providerStatus: 'unpaid', amountReceived: 0 } }),
      ],
    });
    renderInAdmin(<PaymentRoute />, { resource: 'payments', lang: 'he', path: '/admin/payments/42/show' });

    await screen.findByTestId('payment-card');
    expect(screen.getByTestId('payment-card-providerStatus')).toHaveTextContent('ממתין לתשלום');
    expect(screen.getByTestId('payment-card-amountReceived')).toHaveTextContent('סכום שהתקבל');
    expect(screen.getByTestId('payment-card-checkoutSessionId').querySelector('[dir="ltr"]')).toHaveTextContent(
      'cs_test_a1b2c3',
    );
  });
});

describe('payment detail layout', () => {
  /**
   * The space between a field and what is above it: the top margin of the field, or of the first box around it that
   * has something above it (a field that opens its group is spaced by its group).
   */
  function spaceAbovePx(field: Element): number {
    let box: Element | null = field;
    while (box && !box.previousElementSibling) box = box.parentElement;
    return box ? parseFloat(getComputedStyle(box).marginTop || '0') : 0;
  }

  /** A field of the detail as a person finds it: by its label. */
  function fieldLabelled(label: string): Element {
    const field = screen.getByText(label, { selector: 'span, p, label' }).closest('.ra-field');
    if (!field) throw new Error(`no field labelled ${label}`);
    return field;
  }

  it('spaces "Created" below the note to the client as every other field, in Hebrew and English', async () => {
    for (const [lang, note, created] of [
      ['he', 'הודעה ללקוח', 'נוצר'],
      ['en', 'Note to the client', 'Created'],
    ] as const) {
      mockFetch({
        'GET /api/payments/42': [() => json(200, { ...manualPayment, publicNote: 'Checked with the bank' })],
      });
      const { unmount } = renderInAdmin(<PaymentRoute />, {
        resource: 'payments',
        lang,
        path: '/admin/payments/42/show',
      });
      await screen.findByTestId('payment-public-note');
      const noteSpace = spaceAbovePx(fieldLabelled(note));
      expect(noteSpace).toBeGreaterThan(0);
      expect(spaceAbovePx(fieldLabelled(created))).toBe(noteSpace);
      unmount();
    }
  });
});
