import { formatErrorMessage, LIMITS } from '@kupa/proto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { FixBalanceDialog } from './fix-balance-dialog';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const created = { paymentId: 9, userUuid: 'u-1', amount: 25.5, status: 'SUCCESS', aggregator: 'MANUAL' };

function renderDialog(onClose = vi.fn()) {
  renderInAdmin(<FixBalanceDialog open onClose={onClose} userUuid="u-1" balance={40} />);
  return onClose;
}

/** Pastes rather than types: the rules under test are about the values, and typing each key is slow in jsdom. */
async function fill(user: ReturnType<typeof userEvent.setup>, amount: string, comment = 'Bank transfer 17/3') {
  for (const [testId, value] of [
    ['fix-balance-amount', amount],
    ['fix-balance-comment', comment],
  ]) {
    await user.clear(screen.getByTestId(testId));
    if (value) await user.paste(value);
  }
}

beforeEach(() => signInAs('ADMIN'));

describe('fix balance dialog', () => {
  it('refuses with proto rule messages an amount with three decimals, above 99999.99, zero or negative, and a missing reason', async () => {
    const { calls } = mockFetch({});
    const user = userEvent.setup();
    renderDialog();

    const cases: Array<[string, string]> = [
      ['10.555', formatErrorMessage('error.validation.max.decimal.places', 'he', { maxDecimalPlaces: 2 })],
      ['100000', formatErrorMessage('error.validation.max', 'he', { max: 99999.99 })],
      ['0', formatErrorMessage('error.validation.must.be.positive', 'he')],
      ['-5', formatErrorMessage('error.validation.must.be.positive', 'he')],
      ['12abc', formatErrorMessage('error.validation.invalid.input', 'he')],
    ];
    for (const [amount, message] of cases) {
      await fill(user, amount);
      await user.click(screen.getByTestId('fix-balance-submit'));
      expect(await screen.findByText(message)).toBeVisible();
    }

    await fill(user, '99999.99', '');
    await user.click(screen.getByTestId('fix-balance-submit'));
    expect(await screen.findByText(formatErrorMessage('error.validation.required', 'he'))).toBeVisible();
    expect(calls).toHaveLength(0);
  });

  it('sends a withdrawal correction with a fresh Idempotency-Key and closes on success', async () => {
    const { calls } = mockFetch({ 'POST /api/payments': () => json(201, created) });
    const user = userEvent.setup();
    const onClose = renderDialog();

    await user.selectOptions(screen.getByTestId('fix-balance-action'), 'WITHDRAW');
    await user.click(screen.getByTestId('fix-balance-correction'));
    await fill(user, ' 25.50 ', '  Double credit on 17/3  ');
    await user.click(screen.getByTestId('fix-balance-submit'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/payments',
      body: { userUuid: 'u-1', amount: 25.5, action: 'WITHDRAW', comment: 'Double credit on 17/3', correction: true },
    });
    expect(calls[0].headers.get('Idempotency-Key')).toMatch(UUID);
  });

  it('sends an optional note for the client, and refuses one over the limit without cutting it', async () => {
    const { calls } = mockFetch({ 'POST /api/payments': () => json(201, created) });
    const user = userEvent.setup();
    const onClose = renderDialog();

    await fill(user, '25.50', 'Wire 4471, checked by Avi');
    const note = screen.getByTestId('fix-balance-public-note');
    await user.click(note);
    await user.paste('x'.repeat(LIMITS.publicNoteMaxLength + 1));
    await user.click(screen.getByTestId('fix-balance-submit'));
    expect(
      await screen.findByText(
        formatErrorMessage('error.validation.max.length', 'he', { max: LIMITS.publicNoteMaxLength }),
      ),
    ).toBeVisible();
    expect(note).toHaveValue('x'.repeat(LIMITS.publicNoteMaxLength + 1));
    expect(calls).toHaveLength(0);

    await user.clear(note);
    await user.paste('  Your bank transfer arrived  ');
    await user.click(screen.getByTestId('fix-balance-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0].body).toEqual({
      userUuid: 'u-1',
      amount: 25.5,
      action: 'DEPOSIT',
      comment: 'Wire 4471, checked by Avi',
      correction: false,
      publicNote: 'Your bank transfer arrived',
    });
  });

  it('reuses the key when the same submission is retried after a failure, and takes a new one for a changed form', async () => {
    const { calls } = mockFetch({
      'POST /api/payments': [
        () => json(503, { status: 503, error: 'error.internal.server.error', message: 'down' }),
        () => json(503, { status: 503, error: 'error.internal.server.error', message: 'down' }),
        () => json(201, created),
      ],
    });
    const user = userEvent.setup();
    renderDialog();

    await fill(user, '10');
    await user.click(screen.getByTestId('fix-balance-submit'));
    expect(await screen.findByTestId('fix-balance-error')).toHaveTextContent(
      formatErrorMessage('error.internal.server.error', 'he'),
    );
    await user.click(screen.getByTestId('fix-balance-submit'));
    await waitFor(() => expect(calls).toHaveLength(2));
    await fill(user, '11');
    await user.click(screen.getByTestId('fix-balance-submit'));
    await waitFor(() => expect(calls).toHaveLength(3));

    const keys = calls.map((call) => call.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(calls[2].body).toMatchObject({ amount: 11, action: 'DEPOSIT', correction: false });
  });

  it('shows the catalogue message when a withdrawal exceeds the balance', async () => {
    mockFetch({
      'POST /api/payments': () =>
        json(409, {
          status: 409,
          error: 'error.withdrawal.exceeds.balance',
          message: 'A withdrawal cannot exceed the balance',
        }),
    });
    const user = userEvent.setup();
    const onClose = renderDialog();

    await user.selectOptions(screen.getByTestId('fix-balance-action'), 'WITHDRAW');
    await fill(user, '500');
    await user.click(screen.getByTestId('fix-balance-submit'));

    expect(await screen.findByTestId('fix-balance-error')).toHaveTextContent(
      formatErrorMessage('error.withdrawal.exceeds.balance', 'he'),
    );
    expect(onClose).not.toHaveBeenCalled();
  });
});
