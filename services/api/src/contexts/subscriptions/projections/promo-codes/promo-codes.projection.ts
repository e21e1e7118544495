import type { PromoCodeEventDataByType } from '@kupa/proto';
import { PROMO_CODE_EVENT_TYPES } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';

export const PROMO_CODES_TABLE = 'promo_codes';
export const PROMO_CODE_USES_TABLE = 'promo_code_uses';
export const PROMO_CODE_RESERVATIONS_TABLE = 'promo_code_reservations';

/**
 * `promo_codes` and `promo_code_uses` (docs/adr/0088-promo-codes.md): a code's terms and status, its uses and the
 * revenue and discount of the payments that used it; each use by its payment. Inline, so a use is on the list in
 * the same transaction as the payment it discounted.
 */
export class PromoCodesProjection implements InlineProjection {
  readonly name = 'promo-codes';
  readonly handles = Object.values(PROMO_CODE_EVENT_TYPES);
  readonly tables = [PROMO_CODES_TABLE, PROMO_CODE_USES_TABLE, PROMO_CODE_RESERVATIONS_TABLE];
  readonly replayChecked = [
    { table: PROMO_CODES_TABLE, key: ['code'] },
    { table: PROMO_CODE_USES_TABLE, key: ['payment_id'] },
    { table: PROMO_CODE_RESERVATIONS_TABLE, key: ['deposit_payment_id'] },
  ];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const event of events) {
      switch (event.type) {
        case 'PromoCodeCreated': {
          const data = event.data as PromoCodeEventDataByType['PromoCodeCreated'];
          await manager.query(
            `INSERT INTO ${PROMO_CODES_TABLE} (code, discount_kind, percent, amount_minor, applies_to, plan_ids,
               valid_from, valid_until, max_uses, max_uses_per_client, new_clients_only, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'ACTIVE', $12)`,
            [
              data.code,
              data.discountKind,
              data.percent,
              data.amountMinor,
              data.appliesTo,
              data.planIds,
              data.validFrom,
              data.validUntil,
              data.maxUses,
              data.maxUsesPerClient,
              data.newClientsOnly,
              data.createdAt,
            ],
          );
          break;
        }
        case 'PromoCodeDisabled': {
          const data = event.data as PromoCodeEventDataByType['PromoCodeDisabled'];
          await manager.query(`UPDATE ${PROMO_CODES_TABLE} SET status = 'DISABLED', disabled_at = $2 WHERE code = $1`, [
            data.code,
            data.disabledAt,
          ]);
          break;
        }
        case 'PromoCodeRedeemed': {
          const data = event.data as PromoCodeEventDataByType['PromoCodeRedeemed'];
          await manager.query(
            `INSERT INTO ${PROMO_CODE_USES_TABLE} (payment_id, code, user_uuid, use, subscription_id, plan_id,
               list_price_minor, discount_minor, price_minor, redeemed_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
            [
              data.paymentId,
              data.code,
              data.userUuid,
              data.use,
              data.subscriptionId,
              data.planId,
              data.listPriceMinor,
              data.discountMinor,
              data.priceMinor,
              data.redeemedAt,
            ],
          );
          await manager.query(
            `UPDATE ${PROMO_CODES_TABLE}
                SET uses = uses + 1, revenue_minor = revenue_minor + $2, discount_given_minor = discount_given_minor + $3
              WHERE code = $1`,
            [data.code, data.priceMinor, data.discountMinor],
          );
          if (data.depositPaymentId !== undefined)
            await manager.query(
              `UPDATE ${PROMO_CODE_RESERVATIONS_TABLE}
                  SET status = 'REDEEMED', ended_at = $2, payment_id = $3
                WHERE deposit_payment_id = $1`,
              [data.depositPaymentId, data.redeemedAt, data.paymentId],
            );
          break;
        }
        case 'PromoCodeReserved': {
          const data = event.data as PromoCodeEventDataByType['PromoCodeReserved'];
          await manager.query(
            `INSERT INTO ${PROMO_CODE_RESERVATIONS_TABLE} (deposit_payment_id, code, user_uuid, use, subscription_id,
               plan_id, list_price_minor, discount_minor, price_minor, status, reserved_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'HELD', $10, $11)`,
            [
              data.depositPaymentId,
              data.code,
              data.userUuid,
              data.use,
              data.subscriptionId,
              data.planId,
              data.listPriceMinor,
              data.discountMinor,
              data.priceMinor,
              data.reservedAt,
              data.expiresAt,
            ],
          );
          break;
        }
        case 'PromoCodeReservationReleased': {
          const data = event.data as PromoCodeEventDataByType['PromoCodeReservationReleased'];
          await manager.query(
            `UPDATE ${PROMO_CODE_RESERVATIONS_TABLE} SET status = 'RELEASED', ended_at = $2 WHERE deposit_payment_id = $1`,
            [data.depositPaymentId, data.releasedAt],
          );
          break;
        }
      }
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM ${PROMO_CODE_RESERVATIONS_TABLE}`);
    await manager.query(`DELETE FROM ${PROMO_CODE_USES_TABLE}`);
    await manager.query(`DELETE FROM ${PROMO_CODES_TABLE}`);
  }
}
