import type { LedgerEventType } from '@kupa/proto';

/** How an event type's stored data is brought up to the shape this build reads (the event store's upcasting). */
export interface LedgerEventSchema {
  schemaVersion: number;
  upcasters: Record<number, (data: unknown) => unknown>;
}

/** Version 1 payments and status changes were written before staff could add a public note: they carry none. */
const withoutPublicNote = (data: unknown): unknown => ({ ...(data as Record<string, unknown>), publicNote: null });

/** Version 2 payments were written before subscriptions: no payment had a referral discount. */
const withoutDiscount = (data: unknown): unknown => ({ ...(data as Record<string, unknown>), discountPercent: 0 });

/**
 * The ledger event types whose data changed since their first version. Stored history is never rewritten (its hash
 * chain would break); old events are lifted on every read instead.
 */
export const LEDGER_EVENT_SCHEMAS: Readonly<Partial<Record<LedgerEventType, LedgerEventSchema>>> = Object.freeze({
  PaymentRecorded: { schemaVersion: 3, upcasters: { 1: withoutPublicNote, 2: withoutDiscount } },
  PaymentStatusChanged: { schemaVersion: 2, upcasters: { 1: withoutPublicNote } },
});
