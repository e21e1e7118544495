import type { IsoDateTime } from '@kupa/proto';
import type { RequestContext } from '../../../platform/auth';

/** A package a DAYS batch gives days of, named as at the generation. */
export interface DayVoucherPackage {
  planId: string;
  planName: string;
}

export interface DayVoucherRedemptionRequest {
  batchId: string;
  codeIndex: number;
  userUuid: string;
  planId: string;
  planName: string;
  /** The batch's label: the reason the client is shown for the days. */
  label: string;
  /** The login and password of the subscription the code starts when the client has none of the package to extend. */
  newSubscription: { login: string; password: string } | null;
  context: RequestContext;
}

/** What a day code would do for a client now (the preview): extend which subscription to when, or start one. */
export interface DayVoucherPreview {
  /** Null when the client has none of the package to extend: the code starts a new one. */
  subscriptionId: string | null;
  endDate: IsoDateTime | null;
}

export interface DayVoucherRedemptionOutcome {
  subscriptionId: string;
  /** The extended subscription's new end; null for a new one, whose period starts when it is provisioned. */
  endDate: IsoDateTime | null;
  newSubscription: boolean;
}

/**
 * Day vouchers reach subscriptions through this port (docs/adr/0089-prepaid-vouchers.md): the ledger imports no
 * subscriptions (ADR 0024), so the (global) subscriptions module binds it. `redeem` appends the batch's
 * `VoucherCodeRedeemed` (decided by the ledger's `redeemDayVoucher`) and the subscription's `SubscriptionExtended` in
 * one command under the batch's lock, so that a code adds its days once, ever.
 */
export abstract class DayVoucherSubscriptions {
  /** The package by id, as it is on sale now: `error.payment.plan.not.found` (or not active) otherwise. */
  abstract packageOf(planId: string): Promise<DayVoucherPackage>;

  /**
   * Extends the client's ACTIVE, UNSUBSCRIBED or GRACE subscription of the package; for a client without one, starts a
   * subscription of the package with the code's days and the login and password given, or answers
   * `error.voucher.subscription.needed` (once the code is known to be usable) when none were given.
   */
  abstract redeem(request: DayVoucherRedemptionRequest): Promise<DayVoucherRedemptionOutcome>;

  /** What `redeem` would do now for the client with `days` of the package, without a lock or a change. */
  abstract preview(request: { userUuid: string; planId: string; days: number }): Promise<DayVoucherPreview>;
}
