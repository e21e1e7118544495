import { Injectable } from '@nestjs/common';
import type { LedgerEventDataByType, SubscriptionEventDataByType } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { SubscriptionPaymentDetails } from '../../../ledger';
import { PROMO_CODE_USES_TABLE } from '../promo-codes/promo-codes.projection';

export const SUBSCRIPTION_PAYMENTS_TABLE = 'subscription_payments';
/** The package each subscription was started with, paid for or not (a day voucher's start has no payment). */
const SUBSCRIPTION_PLAN_NAMES_TABLE = 'subscription_plan_names';

const HANDLED = [
  'SubscriptionPurchased',
  'SubscriptionRenewed',
  'SubscriptionProvisioningFailed',
  // The ledger's mark on a subscription payment staff refunded (ADR 0092): its REFUND gave that subscription back.
  'PaymentRefundedToBalance',
] as const;

/**
 * `subscription_payments`: which subscription each balance payment bought or renewed, or each refund gave back, with
 * the package's name as bought (docs/adr/0077-details-people-can-read.md), so that a payment's detail can name what
 * it paid for. A renewal and a refund take the name from `subscription_plan_names`, which every purchase fills, with a
 * payment or without one (a day voucher's start, ADR 0089); both tables are this projection's, so a rebuild of it
 * alone gives the same rows.
 */
export class SubscriptionPaymentsProjection implements InlineProjection {
  readonly name = 'subscription-payments';
  readonly handles = HANDLED;
  readonly tables = [SUBSCRIPTION_PAYMENTS_TABLE, SUBSCRIPTION_PLAN_NAMES_TABLE];
  readonly replayChecked = [
    { table: SUBSCRIPTION_PAYMENTS_TABLE, key: ['payment_id'] },
    { table: SUBSCRIPTION_PLAN_NAMES_TABLE, key: ['subscription_id'] },
  ];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const event of events) {
      if (event.type === 'SubscriptionPurchased') {
        const data = event.data as SubscriptionEventDataByType['SubscriptionPurchased'];
        await manager.query(
          `INSERT INTO ${SUBSCRIPTION_PLAN_NAMES_TABLE} (subscription_id, plan_name) VALUES ($1, $2)
           ON CONFLICT (subscription_id) DO NOTHING`,
          [data.subscriptionId, data.planName],
        );
      }
      const paid = paymentOf(event);
      if (paid === null) continue;
      await manager.query(
        `INSERT INTO ${SUBSCRIPTION_PAYMENTS_TABLE} (payment_id, subscription_id, plan_name)
         VALUES ($1, $2, COALESCE($3, (SELECT plan_name FROM ${SUBSCRIPTION_PLAN_NAMES_TABLE}
                                        WHERE subscription_id = $2)))`,
        [paid.paymentId, paid.subscriptionId, paid.planName],
      );
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM ${SUBSCRIPTION_PAYMENTS_TABLE}`);
    await manager.query(`DELETE FROM ${SUBSCRIPTION_PLAN_NAMES_TABLE}`);
  }
}

/** The payment an event names, with the package's name when the event carries it; null when it names none. */
function paymentOf(
  event: RecordedEvent,
): { paymentId: number; subscriptionId: string; planName: string | null } | null {
  switch (event.type) {
    case 'SubscriptionPurchased': {
      const data = event.data as SubscriptionEventDataByType['SubscriptionPurchased'];
      return data.paymentId === null
        ? null
        : { paymentId: data.paymentId, subscriptionId: data.subscriptionId, planName: data.planName };
    }
    case 'SubscriptionRenewed': {
      const data = event.data as SubscriptionEventDataByType['SubscriptionRenewed'];
      return { paymentId: data.paymentId, subscriptionId: data.subscriptionId, planName: null };
    }
    case 'PaymentRefundedToBalance': {
      const data = event.data as LedgerEventDataByType['PaymentRefundedToBalance'];
      return { paymentId: data.refundPaymentId, subscriptionId: data.subscriptionId, planName: null };
    }
    case 'SubscriptionProvisioningFailed': {
      const data = event.data as SubscriptionEventDataByType['SubscriptionProvisioningFailed'];
      return data.refundPaymentId === null
        ? null
        : { paymentId: data.refundPaymentId, subscriptionId: data.subscriptionId, planName: null };
    }
    default:
      return null;
  }
}

/**
 * The ledger's payments reads name what a balance payment paid for from this table, and the promo code it used from
 * `promo_code_uses` (keyed by the same payment id, docs/adr/0088-promo-codes.md). A plain subquery: PostgreSQL pulls
 * it up into the outer join, so a page of payments still reads both tables by their primary keys.
 */
@Injectable()
export class SubscriptionPaymentsTable extends SubscriptionPaymentDetails {
  readonly relation = `(SELECT s.payment_id, s.subscription_id, s.plan_name, u.code AS promo_code,
      u.discount_minor AS promo_discount_minor
    FROM ${SUBSCRIPTION_PAYMENTS_TABLE} s LEFT JOIN ${PROMO_CODE_USES_TABLE} u ON u.payment_id = s.payment_id)`;
}
