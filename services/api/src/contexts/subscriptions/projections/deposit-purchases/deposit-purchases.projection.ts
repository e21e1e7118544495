import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { assert } from '../../../../kernel';
import { DEPOSIT_PURCHASE_EVENT_TYPES, type DepositPurchaseEvent } from '../../domain/deposit-purchase.decider';

export const DEPOSIT_PURCHASES_TABLE = 'deposit_purchases';
/** What the ledger's payments list joins to show what a deposit buys (its port `DepositPurchaseDetails`). */
export const DEPOSIT_PURCHASE_DETAILS_VIEW = 'deposit_purchase_details';

/**
 * `deposit_purchases`: the purchase each deposit pays for and how it stands (docs/adr/0068-deposit-purchases-owned-by-
 * subscriptions.md). Fed by the purchase's three event types whatever stream carries them: the deposit's payment
 * stream for a purchase requested before purchases had streams of their own, `purchase-{paymentId}` after.
 * It never reads the payment's row, so it does not depend on which of an append's streams sorts first.
 */
export class DepositPurchasesProjection implements InlineProjection {
  readonly name = 'deposit-purchases';
  readonly handles = DEPOSIT_PURCHASE_EVENT_TYPES;
  readonly tables = [DEPOSIT_PURCHASES_TABLE];
  readonly replayChecked = [{ table: DEPOSIT_PURCHASES_TABLE, key: ['payment_id'] }];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as DepositPurchaseEvent;
      const [sql, parameters] = statementOf(event);
      if (event.type === 'DepositPurchaseRequested') {
        // The primary key refuses a second purchase for one deposit.
        await manager.query(sql, parameters);
        continue;
      }
      const [, affected] = (await manager.query(sql, parameters)) as [unknown, number];
      assert(affected === 1, `deposit ${event.data.paymentId} paid for a purchase before it completes or fails`);
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM ${DEPOSIT_PURCHASES_TABLE}`);
  }
}

function statementOf(event: DepositPurchaseEvent): [string, unknown[]] {
  switch (event.type) {
    case 'DepositPurchaseRequested': {
      const { paymentId, userUuid, kind, paymentPlanId, planName, subscriptionId, login, priceMinor } = event.data;
      return [
        `INSERT INTO ${DEPOSIT_PURCHASES_TABLE} (payment_id, user_uuid, kind, payment_plan_id, plan_name,
           subscription_id, login, price_minor, status, error_code, subscription_payment_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'WAITING', NULL, NULL)`,
        [paymentId, userUuid, kind, paymentPlanId, planName, subscriptionId, login, priceMinor],
      ];
    }
    case 'DepositPurchaseCompleted':
      return [
        `UPDATE ${DEPOSIT_PURCHASES_TABLE} SET status = 'DONE', subscription_payment_id = $2 WHERE payment_id = $1`,
        [event.data.paymentId, event.data.subscriptionPaymentId],
      ];
    case 'DepositPurchaseFailed':
      return [
        `UPDATE ${DEPOSIT_PURCHASES_TABLE} SET status = 'FAILED', error_code = $2 WHERE payment_id = $1`,
        [event.data.paymentId, event.data.errorCode],
      ];
  }
}
