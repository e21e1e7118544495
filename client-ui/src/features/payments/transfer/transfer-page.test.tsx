import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, maskEmail, type TransferRecipient } from '@kupa/proto';
import { formatDollars } from '../../../lib/format';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import {
  errorResponse,
  jsonResponse,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../../test/render-app';
import { TWO_FACTOR_TEXT } from '../../../lib/ui/two-factor-text';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type TransferAnswer = (call: RecordedCall) => Response | Promise<Response>;

/** Whom the server names for any recipient, unless a test says otherwise. */
const FRIEND: TransferRecipient = { fullName: 'Noa Levi', maskedEmail: maskEmail('friend@example.com') };

/**
 * A client with $1,234.50 (unless told) whose balance drops by what a successful transfer moves; the recipient
 * look-up answers `lookUp`.
 */
function mockTransferApi(
  answer: TransferAnswer,
  lookUp: TransferAnswer = () => jsonResponse(200, FRIEND),
  startBalance = 1234.5,
) {
  let balance = startBalance;
  return mockFetch(async (call) => {
    if (call.url === '/api/users/me') return jsonResponse(200, makeUser({ balance }));
    if (call.url === '/api/payments/search') return jsonResponse(200, pageOf([makePayment()]));
    if (call.url === '/api/payments/transfer/recipient') return lookUp(call);
    if (call.url === '/api/payments/transfer') {
      const response = await answer(call);
      if (response.ok) balance -= (call.body as { amount: number }).amount;
      return response;
    }
    return errorResponse(404, 'error.entity.not.found');
  });
}

const transfers = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/payments/transfer');
const lookUps = (calls: RecordedCall[]) => calls.filter((call) => call.url === '/api/payments/transfer/recipient');

async function fillTransfer(user: ReturnType<typeof userEvent.setup>, recipient: string, amount: string) {
  const recipientInput = await screen.findByTestId('transfer-recipient');
  await user.clear(recipientInput);
  if (recipient) await user.type(recipientInput, recipient);
  await user.clear(screen.getByTestId('transfer-amount'));
  if (amount) await user.type(screen.getByTestId('transfer-amount'), amount);
  await user.click(screen.getByTestId('transfer-continue'));
}

describe('balance transfer', () => {
  it('checks the recipient and the amount with proto rules before anything is sent', async () => {
    signInAs();
    const { calls } = mockTransferApi(() => jsonResponse(201, makePayment()));
    const user = userEvent.setup();
    renderApp('/payments/transfer');
    expect(await screen.findByTestId('transfer-balance-hint')).toHaveTextContent('1,234.50');
    const message = (code: Parameters<typeof formatErrorMessage>[0], params = {}) =>
      formatErrorMessage(code, 'he', params);

    await fillTransfer(user, 'not-an-address', '12.505');
    expect(screen.getByText(message('error.validation.invalid.recipient'))).toBeInTheDocument();
    expect(
      screen.getByText(message('error.validation.max.decimal.places', { maxDecimalPlaces: 2 })),
    ).toBeInTheDocument();

    await fillTransfer(user, '1234567', '100000');
    expect(screen.getByText(message('error.validation.invalid.recipient'))).toBeInTheDocument();
    expect(screen.getByText(message('error.validation.max', { max: '99999.99' }))).toBeInTheDocument();

    await fillTransfer(user, '12345678', '0');
    expect(screen.getByText(message('error.transfer.to.self'))).toBeInTheDocument();
    expect(screen.getByText(message('error.validation.must.be.positive'))).toBeInTheDocument();

    await fillTransfer(user, 'other@example.com', '1234.51');
    expect(screen.getByText(message('error.insufficient.balance'))).toBeInTheDocument();

    await fillTransfer(user, 'other@example.com', '1e3');
    expect(screen.getByText(message('error.validation.invalid.input'))).toBeInTheDocument();

    expect(screen.queryByTestId('transfer-confirm-text')).not.toBeInTheDocument();
    expect(transfers(calls)).toHaveLength(0);
    expect(lookUps(calls)).toHaveLength(0);
  });

  it('names amount and recipient in a confirmation, sends the body with an idempotency key and refreshes the balance', async () => {
    signInAs();
    const { calls } = mockTransferApi(() =>
      jsonResponse(
        201,
        makePayment({ paymentId: 900, type: 'TRANSFER_OUT', amount: 12.5, recipientProfileId: '87654321' }),
      ),
    );
    const user = userEvent.setup();
    const { history } = renderApp('/payments');
    await user.click(await screen.findByTestId('transfer-open'));
    await waitFor(() => expect(history.location.pathname).toBe('/payments/transfer'));
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toContain(formatDollars(1234.5, 'he')));

    await fillTransfer(user, '  friend@example.com ', '12.50');
    const confirmation = await screen.findByTestId('transfer-confirm-text');
    // The server named the recipient as registered, before anything moved.
    expect(lookUps(calls).map((call) => call.body)).toEqual([{ recipient: 'friend@example.com' }]);
    expect(confirmation.textContent).toBe(`להעביר ${formatDollars(12.5, 'he')} אל Noa Levi (f***@e***.com)?`);
    // Every token is isolated; the e-mail reads left to right in the Hebrew sentence.
    expect(
      [...confirmation.querySelectorAll('bdi')].map((node) => [node.textContent, node.getAttribute('dir')]),
    ).toEqual([
      [formatDollars(12.5, 'he'), null],
      ['Noa Levi', null],
      ['f***@e***.com', 'ltr'],
    ]);
    expect(confirmation.textContent).not.toContain('friend@example.com');
    expect(transfers(calls)).toHaveLength(0);

    const meCallsBefore = calls.filter((call) => call.url === '/api/users/me').length;
    const searchesBefore = calls.filter((call) => call.url === '/api/payments/search').length;
    await user.click(screen.getByTestId('transfer-confirm'));

    await waitFor(() => expect(history.location.pathname).toBe('/payments'));
    const [sent] = transfers(calls);
    expect(sent).toMatchObject({ method: 'POST', body: { recipient: 'friend@example.com', amount: 12.5 } });
    expect(sent.headers['idempotency-key']).toMatch(UUID);
    expect(calls.filter((call) => call.url === '/api/users/me').length).toBeGreaterThan(meCallsBefore);
    await waitFor(() => expect(screen.getByTestId('balance').textContent).toContain(formatDollars(1222, 'he')));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(translate('he', 'toast.successTitle'));
    expect(toast).toHaveTextContent('Noa Levi');
    expect(await screen.findAllByTestId('payments-row')).toHaveLength(1);
    // The list seen before the transfer was still fresh; it is asked for again because the transfer changed it.
    expect(calls.filter((call) => call.url === '/api/payments/search').length).toBeGreaterThan(searchesBefore);
  });

  it('writes the confirmation in English when English is chosen', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockTransferApi(
      () => jsonResponse(201, makePayment()),
      () => jsonResponse(200, { fullName: 'דנה כהן', maskedEmail: maskEmail('dana2@example.com') }),
    );
    const user = userEvent.setup();
    renderApp('/payments/transfer');
    await fillTransfer(user, 'dana2@example.com', '12.5');
    const confirmation = await screen.findByTestId('transfer-confirm-text');
    expect(confirmation.textContent).toBe('Transfer $12.50 to דנה כהן (d***@e***.com)?');
    // The Hebrew name is isolated too, so it keeps its own order inside the English sentence.
    expect(screen.getByTestId('transfer-confirm-name').tagName).toBe('BDI');
    await user.click(screen.getByTestId('transfer-cancel'));
    await waitFor(() => expect(screen.queryByTestId('transfer-confirm-text')).not.toBeInTheDocument());
  });

  it('shows insufficient balance from the server as the catalogue toast and beside the amount', async () => {
    signInAs();
    const { calls } = mockTransferApi(() => errorResponse(409, 'error.insufficient.balance', 'Insufficient balance'));
    const user = userEvent.setup();
    const { history } = renderApp('/payments/transfer');
    await screen.findByTestId('transfer-balance-hint');
    await fillTransfer(user, '87654321', '100');
    await user.click(await screen.findByTestId('transfer-confirm'));

    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent(translate('he', 'toast.errorTitle'));
    expect(toast).toHaveTextContent(formatErrorMessage('error.insufficient.balance', 'he'));
    expect(
      within(screen.getByTestId('transfer-form')).getByText(formatErrorMessage('error.insufficient.balance', 'he')),
    ).toBeInTheDocument();
    expect(history.location.pathname).toBe('/payments/transfer');
    expect(transfers(calls)).toHaveLength(1);
  });

  it('reports an unknown recipient beside the field before any confirmation, and sends no transfer', async () => {
    signInAs();
    const { calls } = mockTransferApi(
      () => jsonResponse(201, makePayment()),
      () => errorResponse(404, 'error.user.not.found', 'User not found'),
    );
    const user = userEvent.setup();
    renderApp('/payments/transfer');
    await screen.findByTestId('transfer-balance-hint');
    await fillTransfer(user, 'nobody@example.com', '5');

    const form = screen.getByTestId('transfer-form');
    expect(await within(form).findByText(formatErrorMessage('error.user.not.found', 'he'))).toBeInTheDocument();
    expect(screen.queryByTestId('transfer-confirm-text')).not.toBeInTheDocument();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    expect(lookUps(calls)).toHaveLength(1);
    expect(transfers(calls)).toHaveLength(0);
  });

  it('says so beside the recipient when the look-ups are rate limited', async () => {
    signInAs();
    const { calls } = mockTransferApi(
      () => jsonResponse(201, makePayment()),
      () => errorResponse(429, 'error.rate.limited', 'Too many attempts'),
    );
    const user = userEvent.setup();
    renderApp('/payments/transfer');
    await screen.findByTestId('transfer-balance-hint');
    await fillTransfer(user, '87654321', '5');
    expect(
      await within(screen.getByTestId('transfer-form')).findByText(formatErrorMessage('error.rate.limited', 'he')),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('transfer-confirm-text')).not.toBeInTheDocument();
    expect(transfers(calls)).toHaveLength(0);
  });

  it('explains a negative balance above the form and offers the deposit that settles it', async () => {
    signInAs();
    mockTransferApi(() => jsonResponse(201, makePayment()), undefined, -12.5);
    renderApp('/payments/transfer');
    const notice = await screen.findByTestId('negative-balance-notice');
    expect(notice).toHaveTextContent(translate('he', 'balance.negative.settle'));
    // Compared as raw text: the Hebrew format holds direction marks and a no-break space that matchers normalise.
    expect(screen.getByTestId('negative-balance-debt').textContent).toBe(formatDollars(12.5, 'he'));
    expect(screen.getByTestId('negative-balance-settle')).toHaveAttribute('href', '/payments/deposit');
  });

  it('at a balance of $0 or below, says there is nothing to send and disables Continue before anything is typed', async () => {
    for (const balance of [0, -10]) {
      signInAs();
      const { calls } = mockTransferApi(() => jsonResponse(201, makePayment()), undefined, balance);
      const { unmount } = renderApp('/payments/transfer');
      const reason = await screen.findByTestId('transfer-unavailable-reason');
      expect(reason.textContent).toContain(formatDollars(balance, 'he'));
      expect(reason).toHaveTextContent('אין מה להעביר');
      expect(screen.getByTestId('transfer-continue')).toBeDisabled();
      expect(screen.getByTestId('transfer-continue')).toHaveAttribute(
        'aria-describedby',
        'transfer-unavailable-reason',
      );
      // At $0 the way forward is a deposit; below zero the debt notice already offers it.
      expect(screen.queryAllByTestId('transfer-deposit')).toHaveLength(balance === 0 ? 1 : 0);
      expect(lookUps(calls)).toHaveLength(0);
      unmount();
    }
  });

  it('retries a failed submission with the same key, and uses a new key once the server has refused it', async () => {
    signInAs();
    const answers: TransferAnswer[] = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => errorResponse(404, 'error.user.not.found', 'User not found'),
      () => jsonResponse(201, makePayment()),
    ];
    const { calls } = mockTransferApi((call) => (answers.shift() as TransferAnswer)(call));
    const user = userEvent.setup();
    const { history } = renderApp('/payments/transfer');
    await screen.findByTestId('transfer-balance-hint');

    await fillTransfer(user, '87654321', '20');
    await user.click(await screen.findByTestId('transfer-confirm'));
    await screen.findByTestId('toast');

    await user.click(screen.getByTestId('transfer-continue'));
    await user.click(await screen.findByTestId('transfer-confirm'));
    expect(
      await screen.findByText(formatErrorMessage('error.user.not.found', 'he'), { selector: 'p' }),
    ).toBeInTheDocument();

    await user.click(screen.getByTestId('transfer-continue'));
    await user.click(await screen.findByTestId('transfer-confirm'));
    await waitFor(() => expect(history.location.pathname).toBe('/payments'));

    const keys = transfers(calls).map((call) => call.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('with two-factor sign-in on, asks for a code in the dialog and says a refused one beside it (ADR 0098)', async () => {
    signInAs();
    let answered = 0;
    const { calls } = mockFetch(async (call) => {
      if (call.url === '/api/users/me') return jsonResponse(200, makeUser({ balance: 100, twoFactorEnabled: true }));
      if (call.url === '/api/payments/search') return jsonResponse(200, pageOf([makePayment()]));
      if (call.url === '/api/payments/transfer/recipient') return jsonResponse(200, FRIEND);
      if (call.url === '/api/payments/transfer') {
        answered += 1;
        return answered === 1 ? errorResponse(400, 'error.otp.reused') : jsonResponse(201, makePayment());
      }
      return errorResponse(404, 'error.entity.not.found');
    });
    const user = userEvent.setup();
    renderApp('/payments/transfer');
    await fillTransfer(user, 'friend@example.com', '10');
    const dialog = await screen.findByRole('dialog');
    const code = within(dialog).getByTestId('transfer-otp');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('dir', 'ltr');

    // No code: nothing is sent, the dialog says what it needs.
    await user.click(within(dialog).getByTestId('transfer-confirm'));
    expect(transfers(calls)).toHaveLength(0);
    expect(within(dialog).getByText(TWO_FACTOR_TEXT.he.stepUpHint, { selector: 'p.Mui-error' })).toBeVisible();

    await user.type(code, '123456');
    await user.click(within(dialog).getByTestId('transfer-confirm'));
    expect(await within(dialog).findByText(formatErrorMessage('error.otp.reused', 'he'))).toBeVisible();
    expect(screen.getByRole('dialog')).toBeVisible();
    // Said once, beside the code: no toast repeats it.
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();

    await user.clear(code);
    await user.type(code, '654321');
    await user.click(within(dialog).getByTestId('transfer-confirm'));
    await waitFor(() => expect(transfers(calls)).toHaveLength(2));
    const [refused, accepted] = transfers(calls);
    expect(refused.body).toEqual({ recipient: 'friend@example.com', amount: 10, otpCode: '123456' });
    expect(accepted.body).toEqual({ recipient: 'friend@example.com', amount: 10, otpCode: '654321' });
    // Nothing was booked by the refused call, so the retry is the same submission.
    expect(accepted.headers['idempotency-key']).toBe(refused.headers['idempotency-key']);
  });

  it('asks no code while two-factor sign-in is off', async () => {
    signInAs();
    const { calls } = mockTransferApi(() => jsonResponse(201, makePayment()));
    const user = userEvent.setup();
    renderApp('/payments/transfer');
    await fillTransfer(user, 'friend@example.com', '10');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('transfer-otp')).toBeNull();
    await user.click(within(dialog).getByTestId('transfer-confirm'));
    await waitFor(() => expect(transfers(calls)).toHaveLength(1));
    expect(transfers(calls)[0].body).not.toHaveProperty('otpCode');
  });
});
