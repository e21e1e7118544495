import { describe, expect, it } from 'vitest';
import { creditsUser, PAYMENT_STATUSES, PAYMENT_TYPES, type PaymentStatus, type PaymentType } from './enums';
import {
  PAYMENT_STATUS_INTENTS,
  isBonusPayment,
  paymentAmountLook,
  paymentAmountStateHint,
  paymentBalanceEffect,
  paymentDirection,
  paymentMovedMoney,
  paymentStatusIntent,
  REVIEW_CLOSING_STATUSES,
  signedPaymentAmount,
  staffStatusChoices,
} from './payment-states';

const IN_TYPES: PaymentType[] = ['DEPOSIT', 'TRANSFER_IN', 'REFUND', 'AMBASSADOR_BONUS'];
const OUT_TYPES: PaymentType[] = ['WITHDRAW', 'TRANSFER_OUT', 'SUBSCRIPTION_PAYMENT'];
const VOID_STATUSES: PaymentStatus[] = ['FAILED', 'REJECTED', 'TIMEOUT', 'REFUNDED'];

describe('payment direction and sign', () => {
  it('names every type as money in or money out, and no type as both', () => {
    expect([...IN_TYPES, ...OUT_TYPES].sort()).toEqual([...PAYMENT_TYPES].sort());
    for (const type of IN_TYPES) expect([paymentDirection(type), creditsUser(type)], type).toEqual(['IN', true]);
    for (const type of OUT_TYPES) expect([paymentDirection(type), creditsUser(type)], type).toEqual(['OUT', false]);
  });

  it('signs a size by direction, in any unit, whatever sign it came with', () => {
    expect(signedPaymentAmount(1250, 'DEPOSIT')).toBe(1250);
    expect(signedPaymentAmount(12.5, 'WITHDRAW')).toBe(-12.5);
    expect(signedPaymentAmount(-12.5, 'TRANSFER_OUT')).toBe(-12.5);
    expect(signedPaymentAmount(-12.5, 'TRANSFER_IN')).toBe(12.5);
    expect(Object.is(signedPaymentAmount(0, 'WITHDRAW'), 0)).toBe(true);
  });

  it('counts money towards the balance only while the payment is SUCCESS', () => {
    for (const status of PAYMENT_STATUSES) expect(paymentMovedMoney(status), status).toBe(status === 'SUCCESS');
    expect(paymentBalanceEffect(500, 'DEPOSIT', 'SUCCESS')).toBe(500);
    expect(paymentBalanceEffect(500, 'TRANSFER_OUT', 'SUCCESS')).toBe(-500);
    for (const status of ['PENDING', 'REVIEW', ...VOID_STATUSES] as PaymentStatus[]) {
      expect(paymentBalanceEffect(500, 'DEPOSIT', status), status).toBe(0);
      expect(paymentBalanceEffect(500, 'WITHDRAW', status), status).toBe(0);
    }
  });
});

describe('how a payment looks', () => {
  it('colours moved money by direction: green in, red out, neither muted nor struck', () => {
    expect(paymentAmountLook({ amount: 20, type: 'DEPOSIT', status: 'SUCCESS' })).toEqual({
      signedAmount: 20,
      direction: 'IN',
      state: 'moved',
      intent: 'success',
      bonus: false,
      muted: false,
      struck: false,
    });
    expect(paymentAmountLook({ amount: 20, type: 'TRANSFER_OUT', status: 'SUCCESS' })).toMatchObject({
      signedAmount: -20,
      intent: 'error',
      muted: false,
      struck: false,
    });
  });

  it('marks an ambassador bonus apart from paid money: the bonus intent and flag, never the deposit green', () => {
    expect(paymentAmountLook({ amount: 10, type: 'AMBASSADOR_BONUS', status: 'SUCCESS' })).toMatchObject({
      signedAmount: 10,
      direction: 'IN',
      intent: 'bonus',
      bonus: true,
    });
    expect(paymentAmountLook({ amount: 10, type: 'AMBASSADOR_BONUS', status: 'REJECTED' })).toMatchObject({
      intent: 'neutral',
      bonus: true,
      struck: true,
    });
    for (const type of PAYMENT_TYPES.filter((type) => type !== 'AMBASSADOR_BONUS')) {
      expect(isBonusPayment(type), type).toBe(false);
      expect(paymentAmountLook({ amount: 10, type, status: 'SUCCESS' }).bonus, type).toBe(false);
    }
  });

  it('never shows a failed, rejected, timed-out or refunded payment as money moved: neutral, muted, struck', () => {
    for (const status of VOID_STATUSES) {
      for (const type of PAYMENT_TYPES) {
        const look = paymentAmountLook({ amount: 20, type, status });
        expect(look, `${type} ${status}`).toMatchObject({
          state: 'void',
          intent: 'neutral',
          muted: true,
          struck: true,
        });
        expect(look.signedAmount).toBe(signedPaymentAmount(20, type));
      }
    }
  });

  it('shows a pending payment, or one held for review, muted but not struck: it may still move', () => {
    for (const status of ['PENDING', 'REVIEW'] as PaymentStatus[])
      expect(paymentAmountLook({ amount: 20, type: 'DEPOSIT', status }), status).toMatchObject({
        state: 'pending',
        intent: 'neutral',
        muted: true,
        struck: false,
      });
  });

  it('gives every status a badge colour by meaning', () => {
    expect(Object.keys(PAYMENT_STATUS_INTENTS).sort()).toEqual([...PAYMENT_STATUSES].sort());
    expect(paymentStatusIntent('SUCCESS')).toBe('success');
    expect(paymentStatusIntent('PENDING')).toBe('warning');
    expect(paymentStatusIntent('REVIEW')).toBe('warning');
    for (const status of ['FAILED', 'REJECTED', 'TIMEOUT'] as PaymentStatus[])
      expect(paymentStatusIntent(status)).toBe('error');
    expect(paymentStatusIntent('REFUNDED')).toBe('neutral');
  });

  it('tells in words, in both languages, that an amount is not in the balance', () => {
    expect(paymentAmountStateHint('moved', 'he')).toBeNull();
    expect(paymentAmountStateHint('void', 'en')).toBe('not counted in the balance');
    expect(paymentAmountStateHint('void', 'he')).toMatch(/[\u0590-\u05ff]/);
    expect(paymentAmountStateHint('pending', 'he')).toMatch(/[\u0590-\u05ff]/);
  });
});

describe('what staff may set', () => {
  it('any status on a manual payment; on a provider payment held for review only closing ones, never SUCCESS', () => {
    expect(staffStatusChoices({ aggregator: 'MANUAL', status: 'SUCCESS' })).toEqual(PAYMENT_STATUSES);
    expect(staffStatusChoices({ aggregator: 'STRIPE', status: 'REVIEW' })).toEqual([
      'REVIEW',
      'FAILED',
      'REJECTED',
      'REFUNDED',
    ]);
    expect(REVIEW_CLOSING_STATUSES.some((status) => paymentMovedMoney(status))).toBe(false);
    for (const status of ['PENDING', 'SUCCESS', 'REJECTED'] as PaymentStatus[])
      expect(staffStatusChoices({ aggregator: 'CASHIER', status })).toEqual([status]);
  });
});
