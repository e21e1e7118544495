import { auditFieldText, EVENT_SENTENCES, type EventMetadata } from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';
import { type AuditEntryDraft, keptOutOfTheLog } from '../audit';
import { ALL_LEDGER_EVENT_TYPES, type LedgerEventType, WALLET_EVENT_TYPES } from './domain/ledger.events';
import { LEDGER_AUDIT_MAPPERS } from './ledger.audit';

const USER_UUID = '0b7e7c2e-4a52-4bb4-8a8e-3a1d2f0c9e11';
const AT = '2026-03-02T10:00:00.000Z';

/** Every field the payment events carry, so that each mapper finds what it reads. */
const PAYMENT_FIELDS = {
  paymentId: 134,
  userUuid: USER_UUID,
  userEmail: 'dana@example.com',
  type: 'DEPOSIT',
  method: 'MANUAL_TRANSFER',
  aggregator: 'MANUAL',
  status: 'SUCCESS',
  previousStatus: 'PENDING',
  amountMinor: 1250,
  currency: 'USD',
  comment: 'Bank transfer',
  publicNote: 'Received, thank you',
  counterAccount: 'world:manual',
  correction: false,
  transferId: null,
  senderProfileId: null,
  recipientProfileId: null,
  createdAt: AT,
  changedAt: AT,
  // A crypto deposit's bonus and purchase (ADR 0030).
  bonusPaymentId: 135,
  kind: 'BUY',
  paymentPlanId: '44444444-4444-4444-8444-444444444444',
  planName: 'Gold',
  subscriptionId: '55555555-5555-4555-8555-555555555555',
  priceMinor: 2999,
  errorCode: 'error.plan.no.longer.available',
  // A refund to the balance (ADR 0092).
  refundPaymentId: 136,
  reason: 'Service outage',
  endedSubscription: true,
  refundedAt: AT,
};

function draftsOf(type: LedgerEventType): AuditEntryDraft[] {
  const event: RecordedEvent = {
    globalPosition: '1',
    eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
    streamId: 'payment-134',
    streamVersion: 1,
    type,
    data: PAYMENT_FIELDS,
    metadata: {} as EventMetadata,
    recordedAt: new Date(AT),
    hash: '',
    schemaVersion: 1,
  };
  const mapped = LEDGER_AUDIT_MAPPERS[type](event);
  return mapped === null ? [] : Array.isArray(mapped) ? mapped : [mapped];
}

describe('ledger events in the activity log', () => {
  it.each(ALL_LEDGER_EVENT_TYPES)('%s writes only fields the shared mapping names in both languages', (type) => {
    for (const draft of draftsOf(type)) {
      for (const field of Object.keys(draft.fields)) {
        expect({ field, labelled: auditFieldText(draft.targetType, field) !== null }).toEqual({
          field,
          labelled: true,
        });
      }
    }
  });

  it.each(['PaymentRecorded', 'PaymentStatusChanged'] as const)(
    '%s shows the note for the client when there is one, and adds no field for events without one',
    (type) => {
      expect(draftsOf(type)[0].fields).toMatchObject({ publicNote: 'Received, thank you' });
      const withoutNote = LEDGER_AUDIT_MAPPERS[type]({
        globalPosition: '1',
        eventId: '0b7f2d4e-5c1a-4e8b-9f3d-2a6c8e1b4d70',
        streamId: 'payment-134',
        streamVersion: 1,
        type,
        data: { ...PAYMENT_FIELDS, publicNote: null },
        metadata: {} as EventMetadata,
        recordedAt: new Date(AT),
        hash: '',
        schemaVersion: 2,
      }) as AuditEntryDraft;
      expect(withoutNote.fields).not.toHaveProperty('publicNote');
    },
  );

  it('logs the payment events and leaves the wallet events to them', () => {
    const logged = ALL_LEDGER_EVENT_TYPES.filter((type) => draftsOf(type).length > 0);
    expect(logged.sort()).toEqual([
      'AmbassadorBonusRaised',
      'CardCheckoutOpened',
      'CardPaymentReported',
      'CashierInvoiceOpened',
      'CashierPaymentReported',
      'DepositPurchaseCompleted',
      'DepositPurchaseFailed',
      'DepositPurchaseRequested',
      'PaymentRecorded',
      'PaymentRefundedToBalance',
      'PaymentStatusChanged',
    ]);
  });

  it('tells a refund to the balance: the amount, the REFUND payment, the reason and whether the subscription ended', () => {
    expect(draftsOf('PaymentRefundedToBalance')).toEqual([
      expect.objectContaining({
        targetType: 'PAYMENT',
        targetId: '134',
        parent: { type: 'CLIENT', id: USER_UUID },
        operationType: 'UPDATED',
        fields: {
          refundedAmount: 12.5,
          refundPaymentId: '#136',
          refundReason: 'Service outage',
          refundEndedSubscription: true,
        },
      }),
    ]);
  });

  it('declares the wallet events kept out of the log, so that a replay of the log does not decode them', () => {
    const keptOut = ALL_LEDGER_EVENT_TYPES.filter((type) => LEDGER_AUDIT_MAPPERS[type] === keptOutOfTheLog);
    expect(keptOut.sort()).toEqual([...WALLET_EVENT_TYPES].sort());
  });

  it.each([
    'PaymentRecorded',
    'PaymentStatusChanged',
    'AmbassadorBonusRaised',
    'DepositPurchaseRequested',
    'DepositPurchaseCompleted',
    'DepositPurchaseFailed',
  ] as const)("%s's sentence names only values its entry carries", (type) => {
    const fields = new Set(draftsOf(type).flatMap((draft) => Object.keys(draft.fields)));
    const generic = new Set(['target', 'parent', 'changes', 'event']);
    for (const [, name] of EVENT_SENTENCES[type].en.matchAll(/\{(\w+)\}/g)) {
      expect({ name, known: generic.has(name) || fields.has(name) }).toEqual({ name, known: true });
    }
  });
});
