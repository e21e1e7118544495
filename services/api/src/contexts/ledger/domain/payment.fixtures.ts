import type { PaymentRecordedData } from '@kupa/proto';

/** A recorded payment for the payment decider's specs: a SUCCESS manual deposit of $12.50 unless overridden. */
export const recordedPayment = (overrides: Partial<PaymentRecordedData> = {}): PaymentRecordedData => ({
  paymentId: 7,
  userUuid: '11111111-1111-4111-8111-111111111111',
  userEmail: 'dana@example.com',
  type: 'DEPOSIT',
  method: 'MANUAL_TRANSFER',
  aggregator: 'MANUAL',
  status: 'SUCCESS',
  amountMinor: 1250,
  currency: 'USD',
  comment: 'wire',
  publicNote: null,
  counterAccount: 'world:manual',
  correction: false,
  transferId: null,
  senderProfileId: null,
  recipientProfileId: null,
  discountPercent: 0,
  createdAt: '2026-03-01T10:00:00.000Z',
  ...overrides,
});
