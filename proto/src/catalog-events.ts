import type { Currency, PlanDurationMonths, PlanStatus } from './enums';
import type { IsoDateTime } from './payloads';

/**
 * Events of the catalog context (stream `plan-{uuid}`, one per package), with their payloads. Prices are integer
 * cents, like every amount inside the system.
 */
export const PAYMENT_PLAN_EVENT_TYPES = Object.freeze({
  created: 'PaymentPlanCreated',
  updated: 'PaymentPlanUpdated',
  statusChanged: 'PaymentPlanStatusChanged',
  deleted: 'PaymentPlanDeleted',
} as const);

export type PaymentPlanEventType = (typeof PAYMENT_PLAN_EVENT_TYPES)[keyof typeof PAYMENT_PLAN_EVENT_TYPES];

export const PLAN_STREAM_PREFIX = 'plan-';

export function planStreamId(planId: string): string {
  return `${PLAN_STREAM_PREFIX}${planId}`;
}

/** What a package offers and costs: everything an admin sets except its status. */
export interface PaymentPlanTerms {
  name: string;
  durationInMonths: PlanDurationMonths;
  priceMinor: number;
  currency: Currency;
  isRecurrent: boolean;
  description: string;
  features: string[];
  /**
   * Whether the package may be bought by card checkout (docs/adr/0029-card-checkout.md). Added in schema version 2
   * of `PaymentPlanCreated` and `PaymentPlanUpdated`; events stored before it read as true.
   */
  cardPaymentAllowed: boolean;
  /**
   * The package's name and description in English, beside `name` and `description` (Hebrew, the default language);
   * empty when staff gave none, and each reader then sees the other language's text
   * (docs/adr/0075-demo-catalogue-and-bilingual-packages.md). Added in schema version 3 of `PaymentPlanCreated` and
   * `PaymentPlanUpdated`; events stored before it read as empty.
   */
  nameEn: string;
  descriptionEn: string;
}

/** An admin created a package. */
export interface PaymentPlanCreatedData extends PaymentPlanTerms {
  planId: string;
  status: PlanStatus;
  createdAt: IsoDateTime;
}

/** An admin changed a package's terms; the payload holds all of them as they are after the change. */
export interface PaymentPlanUpdatedData extends PaymentPlanTerms {
  planId: string;
}

export interface PaymentPlanStatusChangedData {
  planId: string;
  previousStatus: PlanStatus;
  status: PlanStatus;
}

/** An admin deleted a package that no subscription refers to; nothing can happen to it afterwards. */
export interface PaymentPlanDeletedData {
  planId: string;
  deletedAt: IsoDateTime;
}

export interface PaymentPlanEventDataByType {
  PaymentPlanCreated: PaymentPlanCreatedData;
  PaymentPlanUpdated: PaymentPlanUpdatedData;
  PaymentPlanStatusChanged: PaymentPlanStatusChangedData;
  PaymentPlanDeleted: PaymentPlanDeletedData;
}

/** One catalog event as a tagged union: `{type, data}`, the shape the event store appends. */
export type PaymentPlanEvent = {
  [Type in PaymentPlanEventType]: { type: Type; data: PaymentPlanEventDataByType[Type] };
}[PaymentPlanEventType];
