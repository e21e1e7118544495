import type { PaymentRecordedData } from '@kupa/proto';

/**
 * The fields of a `PaymentRecorded` that only a person, a transfer, a discount or a bonus link fills: empty on a
 * payment the system books by itself (a provider's deposit, an ambassador's bonus).
 */
export const WITHOUT_PERSONAL_FIELDS = Object.freeze({
  comment: null,
  publicNote: null,
  correction: false,
  transferId: null,
  senderProfileId: null,
  recipientProfileId: null,
  discountPercent: 0,
  bonusPaymentId: null,
}) satisfies Partial<PaymentRecordedData>;
