import {
  enumLabel,
  PAYMENT_BONUS_MARK,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  paymentAmountStateHint,
  type PaymentStatus,
  type PaymentType,
} from '@kupa/proto';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInAdmin } from '../test/render-admin';
import { formatAmount } from './money';
import { PaymentAmount, PaymentStatusChip } from './payment-display';

const IN_TYPES: readonly PaymentType[] = ['DEPOSIT', 'TRANSFER_IN', 'REFUND', 'AMBASSADOR_BONUS'];
const VOID_STATUSES: readonly PaymentStatus[] = ['FAILED', 'REJECTED', 'TIMEOUT', 'REFUNDED'];

function renderAmount(type: PaymentType, status: PaymentStatus, lang: 'he' | 'en' = 'he', testId = 'amount') {
  renderInAdmin(<PaymentAmount payment={{ amount: 12.5, type, status }} testId={testId} />, { lang });
  const shown = screen.getByTestId(testId);
  return { shown, bdi: shown.querySelector('bdi') as HTMLElement };
}

describe('payment amounts in the console', () => {
  it.each(PAYMENT_TYPES.map((type) => [type]))('signs a successful %s by its direction and colours it', (type) => {
    const { shown, bdi } = renderAmount(type, 'SUCCESS');
    const incoming = IN_TYPES.includes(type);
    expect(bdi).toHaveAttribute('dir', 'ltr');
    expect(bdi.textContent).toBe(incoming ? `+${formatAmount(12.5, 'he')}` : formatAmount(-12.5, 'he'));
    expect(bdi.textContent?.startsWith(incoming ? '+' : '-')).toBe(true);
    expect(bdi).toHaveAttribute('data-intent', type === 'AMBASSADOR_BONUS' ? 'bonus' : incoming ? 'success' : 'error');
    expect(getComputedStyle(bdi).textDecoration).not.toContain('line-through');
    // Nothing is said beside paid money that moved; a bonus is named as one.
    expect(shown.textContent).toBe(
      type === 'AMBASSADOR_BONUS' ? `${bdi.textContent}${PAYMENT_BONUS_MARK.he}` : bdi.textContent,
    );
  });

  it('sets an ambassador bonus apart from paid money: its own colour and a bonus chip, in both languages', () => {
    const bonus = renderAmount('AMBASSADOR_BONUS', 'SUCCESS', 'en', 'bonus');
    const deposit = renderAmount('DEPOSIT', 'SUCCESS', 'en', 'deposit');
    expect(within(bonus.shown).getByTestId('payment-bonus-mark')).toHaveTextContent('Bonus');
    expect(within(deposit.shown).queryByTestId('payment-bonus-mark')).toBeNull();
    expect(getComputedStyle(bonus.bdi).color).toMatch(/^rgb/);
    expect(getComputedStyle(bonus.bdi).color).not.toBe(getComputedStyle(deposit.bdi).color);
    // A bonus taken back with its deposit still says what it was, struck through like any money that never counted.
    const rejected = renderAmount('AMBASSADOR_BONUS', 'REJECTED', 'he', 'rejected');
    expect(within(rejected.shown).getByTestId('payment-bonus-mark')).toHaveTextContent('בונוס');
    expect(getComputedStyle(rejected.bdi).textDecoration).toContain('line-through');
  });

  it.each(VOID_STATUSES.map((status) => [status]))(
    'shows a %s deposit as money that never counted: muted, struck, never a green plus',
    (status) => {
      const { shown, bdi } = renderAmount('DEPOSIT', status);
      expect(bdi).toHaveAttribute('data-state', 'void');
      expect(bdi).toHaveAttribute('data-intent', 'neutral');
      expect(getComputedStyle(bdi).textDecoration).toContain('line-through');
      const moved = renderAmount('DEPOSIT', 'SUCCESS', 'he', 'moved');
      expect(getComputedStyle(moved.bdi).color).toMatch(/^rgb/);
      expect(getComputedStyle(bdi).color).not.toBe(getComputedStyle(moved.bdi).color);
      expect(bdi.textContent).toBe(`+${formatAmount(12.5, 'he')}`);
      expect(within(shown).getByText(`(${paymentAmountStateHint('void', 'he')})`, { exact: false })).toBeTruthy();
    },
  );

  it('shows a pending payment muted but not struck, and says so to a screen reader', () => {
    const { shown, bdi } = renderAmount('WITHDRAW', 'PENDING', 'en');
    expect(bdi).toHaveAttribute('data-state', 'pending');
    expect(bdi.textContent).toBe(formatAmount(-12.5, 'en'));
    expect(getComputedStyle(bdi).textDecoration).not.toContain('line-through');
    expect(shown.textContent).toContain('pending, not in the balance yet');
  });
});

describe('payment status badges', () => {
  const EXPECTED_COLOURS: Record<PaymentStatus, string> = {
    SUCCESS: 'Success',
    PENDING: 'Warning',
    FAILED: 'Error',
    REJECTED: 'Error',
    TIMEOUT: 'Error',
    REFUNDED: 'Default',
    REVIEW: 'Warning',
  };

  it.each(PAYMENT_STATUSES.map((status) => [status]))('colours %s by its meaning', (status) => {
    renderInAdmin(<PaymentStatusChip status={status} />);
    const chip = screen.getByText(enumLabel('paymentStatus', status, 'he')).closest('.MuiChip-root') as HTMLElement;
    expect(chip).toHaveClass(`MuiChip-color${EXPECTED_COLOURS[status]}`);
    expect(chip).toHaveClass('MuiChip-outlined');
  });

  it('keeps every badge label in the text colour, the meaning in the border and the dot', () => {
    renderInAdmin(
      <>
        {PAYMENT_STATUSES.map((status) => (
          <PaymentStatusChip key={status} status={status} />
        ))}
      </>,
    );
    const labels = PAYMENT_STATUSES.map(
      (status) => screen.getByText(enumLabel('paymentStatus', status, 'he')) as HTMLElement,
    );
    const colours = new Set(labels.map((label) => getComputedStyle(label).color));
    expect(colours.size).toBe(1);
    for (const label of labels) expect(label.closest('.MuiChip-root')?.querySelector('.MuiChip-icon')).not.toBeNull();
  });
});
