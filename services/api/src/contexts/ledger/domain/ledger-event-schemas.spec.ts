import type { PaymentRecordedData, PaymentStatusChangedData } from '@kupa/proto';
import { LEDGER_EVENT_SCHEMAS } from './ledger-event-schemas';

describe('ledger event schemas', () => {
  it('lifts payments and status changes stored before public notes to the current shape, with no note', () => {
    const recordedV1: Omit<PaymentRecordedData, 'publicNote' | 'discountPercent'> = {
      paymentId: 3,
      userUuid: '11111111-1111-4111-8111-111111111111',
      userEmail: 'dana@example.com',
      type: 'DEPOSIT',
      method: 'MANUAL_TRANSFER',
      aggregator: 'MANUAL',
      status: 'SUCCESS',
      amountMinor: 500,
      currency: 'USD',
      comment: 'wire',
      counterAccount: 'world:manual',
      correction: false,
      transferId: null,
      senderProfileId: null,
      recipientProfileId: null,
      createdAt: '2026-03-01T10:00:00.000Z',
    };
    const changedV1: Omit<PaymentStatusChangedData, 'publicNote'> = {
      paymentId: 3,
      userUuid: recordedV1.userUuid,
      previousStatus: 'SUCCESS',
      status: 'FAILED',
      changedAt: '2026-03-02T10:00:00.000Z',
    };
    const recorded = LEDGER_EVENT_SCHEMAS.PaymentRecorded;
    const changed = LEDGER_EVENT_SCHEMAS.PaymentStatusChanged;
    expect([recorded?.schemaVersion, changed?.schemaVersion]).toEqual([3, 2]);
    expect(recorded?.upcasters[1](recordedV1)).toEqual({ ...recordedV1, publicNote: null });
    expect(changed?.upcasters[1](changedV1)).toEqual({ ...changedV1, publicNote: null });
  });

  it('lifts payments stored before subscriptions to the current shape, with no discount', () => {
    const recorded = LEDGER_EVENT_SCHEMAS.PaymentRecorded;
    const v2 = { paymentId: 4, type: 'DEPOSIT', publicNote: null };
    expect(recorded?.upcasters[2](v2)).toEqual({ ...v2, discountPercent: 0 });
  });
});
