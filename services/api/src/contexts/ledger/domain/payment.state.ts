import type { PaymentRecordedData, PaymentStatus } from '@kupa/proto';

/** A payment as its stream tells it: what was recorded, and its status now. Null before it is recorded. */
export interface PaymentState extends PaymentRecordedData {
  status: PaymentStatus;
  updatedAt: string;
}
