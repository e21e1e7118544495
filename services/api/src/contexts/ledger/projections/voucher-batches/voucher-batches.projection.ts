import { ALL_VOUCHER_EVENT_TYPES, type VoucherEvent } from '../../domain/voucher-batch.decider';
import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { actorLabelOf } from '../payments/payments.projection';

/**
 * Keeps `voucher_batches` (what the console lists: each batch's funding and how many codes were redeemed) and
 * `voucher_redemptions` (who redeemed which code) in step with the batch streams, in the append's transaction.
 */
export class VoucherBatchesProjection implements InlineProjection {
  readonly name = 'voucher-batches';
  readonly handles = ALL_VOUCHER_EVENT_TYPES;
  readonly tables = ['voucher_batches', 'voucher_redemptions'];
  readonly replayChecked = [
    { table: 'voucher_batches', key: ['id'] },
    { table: 'voucher_redemptions', key: ['batch_id', 'code_index'] },
  ];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as VoucherEvent;
      switch (event.type) {
        case 'VoucherBatchGenerated': {
          const { batchId, label, count, amountMinor, generatedAt } = event.data;
          await manager.query(
            `INSERT INTO voucher_batches
               (id, label, count, amount_minor, created_at, created_by, kind, days, plan_id, plan_name)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
            [
              batchId,
              label,
              count,
              amountMinor,
              generatedAt,
              actorLabelOf(recorded),
              event.data.kind ?? 'MONEY',
              event.data.days ?? null,
              event.data.planId ?? null,
              event.data.planName ?? null,
            ],
          );
          break;
        }
        case 'VoucherBatchSold':
        case 'VoucherBatchGivenAway':
          await manager.query(
            'UPDATE voucher_batches SET funding = $2, funded_at = $3, funding_comment = $4 WHERE id = $1',
            [
              event.data.batchId,
              event.type === 'VoucherBatchSold' ? 'SOLD' : 'GIVEN_AWAY',
              event.data.fundedAt,
              event.data.comment,
            ],
          );
          break;
        case 'VoucherCodeRedeemed': {
          const { batchId, codeIndex, userUuid, paymentId, redeemedAt } = event.data;
          await manager.query(
            `INSERT INTO voucher_redemptions (batch_id, code_index, user_uuid, payment_id, redeemed_at, subscription_id)
             VALUES ($1, $2, $3, $4, $5, $6)`,
            [batchId, codeIndex, userUuid, paymentId, redeemedAt, event.data.subscriptionId ?? null],
          );
          await manager.query('UPDATE voucher_batches SET redeemed_count = redeemed_count + 1 WHERE id = $1', [
            batchId,
          ]);
          break;
        }
      }
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE voucher_batches, voucher_redemptions');
  }
}
