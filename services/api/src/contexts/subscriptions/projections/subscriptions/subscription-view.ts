import {
  type Currency,
  DEFAULT_RENEWAL_FUNDING,
  minorToAmount,
  type RenewalFunding,
  type Subscription,
  type SubscriptionPurchasedData,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@kupa/proto';

/** A row of `subscriptions s`: a subscription as it is now. */
export interface SubscriptionRow {
  id: string;
  user_uuid: string;
  user_email: string;
  plan_id: string | null;
  plan_name: string | null;
  price_minor: string;
  currency: Currency;
  status: SubscriptionStatus;
  type: SubscriptionType;
  duration_in_month: number;
  is_recurrent: boolean;
  cancel_at_period_end: boolean;
  next_payment_date: Date | null;
  renewal_funding: RenewalFunding;
  login: string;
  start_date: Date | null;
  end_date: Date | null;
  grace_ends_at: Date | null;
  created_at: Date;
  created_by: string;
  updated_at: Date;
  updated_by: string;
}

/** The columns a `Subscription` is made from; the price leaves PostgreSQL as text, never as a lossy number. */
export const SUBSCRIPTION_COLUMNS = `s.id, s.user_uuid, s.user_email, s.plan_id, s.plan_name,
  s.price_minor::text AS price_minor, s.currency, s.status, s.type, s.duration_in_month, s.is_recurrent,
  s.cancel_at_period_end, s.next_payment_date, s.login, s.start_date, s.end_date, s.created_at, s.created_by,
  s.updated_at, s.updated_by, s.grace_ends_at, s.renewal_funding`;

export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    userUuid: row.user_uuid,
    userEmail: row.user_email,
    paymentPlan: row.plan_id === null ? null : { planId: row.plan_id, planName: row.plan_name ?? '' },
    price: minorToAmount(BigInt(row.price_minor)),
    currency: row.currency,
    status: row.status,
    type: row.type,
    durationInMonth: row.duration_in_month,
    isRecurrent: row.is_recurrent,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    nextPaymentDate: row.next_payment_date?.toISOString() ?? null,
    renewalFunding: row.renewal_funding,
    login: row.login,
    startDate: row.start_date?.toISOString() ?? null,
    endDate: row.end_date?.toISOString() ?? null,
    graceEndsAt: row.grace_ends_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.updated_by,
  };
}

/**
 * A subscription as its purchase makes it, for the purchase's own answer: the answer is decided (and stored against an
 * `Idempotency-Key`) before the projection writes the row, and says exactly what that row then says.
 */
export function subscriptionFromPurchase(data: SubscriptionPurchasedData, author: string): Subscription {
  return {
    id: data.subscriptionId,
    userUuid: data.userUuid,
    userEmail: data.userEmail,
    paymentPlan: data.planId === null ? null : { planId: data.planId, planName: data.planName ?? '' },
    price: minorToAmount(data.priceMinor),
    currency: data.currency,
    status: 'PENDING',
    type: data.type,
    durationInMonth: data.durationInMonths,
    isRecurrent: data.isRecurrent,
    cancelAtPeriodEnd: false,
    nextPaymentDate: null,
    renewalFunding: DEFAULT_RENEWAL_FUNDING,
    login: data.login,
    startDate: null,
    endDate: null,
    graceEndsAt: null,
    createdAt: data.purchasedAt,
    createdBy: author,
    updatedAt: data.purchasedAt,
    updatedBy: author,
  };
}
