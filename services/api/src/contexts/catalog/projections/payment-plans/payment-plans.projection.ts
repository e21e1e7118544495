import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { ALL_PAYMENT_PLAN_EVENT_TYPES, type PaymentPlanEvent } from '../../domain/plan.events';

/**
 * Keeps `payment_plans` in step with the plan streams inside the append transaction, so a command's answer (and the
 * unique name index) see the new state at once. A unique violation here aborts the append.
 */
export class PaymentPlansProjection implements InlineProjection {
  readonly name = 'payment-plans';
  readonly handles = ALL_PAYMENT_PLAN_EVENT_TYPES;
  readonly tables = ['payment_plans'];
  readonly replayChecked = [{ table: 'payment_plans', key: ['id'] }];

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as PaymentPlanEvent;
      await this.applyOne(event, recorded.metadata.occurredAt, manager);
    }
  }

  private async applyOne(event: PaymentPlanEvent, occurredAt: string, manager: EntityManager): Promise<void> {
    switch (event.type) {
      case 'PaymentPlanCreated': {
        const data = event.data;
        await manager.query(
          `INSERT INTO payment_plans (id, name, duration_months, price_minor, currency, is_recurrent, description, features,
             status, created_at, updated_at, card_payment_allowed, name_en, description_en)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13)`,
          [
            data.planId,
            data.name,
            data.durationInMonths,
            data.priceMinor,
            data.currency,
            data.isRecurrent,
            data.description,
            data.features,
            data.status,
            data.createdAt,
            data.cardPaymentAllowed,
            data.nameEn,
            data.descriptionEn,
          ],
        );
        return;
      }
      case 'PaymentPlanUpdated': {
        const data = event.data;
        await manager.query(
          `UPDATE payment_plans SET name = $2, duration_months = $3, price_minor = $4, currency = $5, is_recurrent = $6,
             description = $7, features = $8, updated_at = $9, card_payment_allowed = $10,
             name_en = $11, description_en = $12
           WHERE id = $1`,
          [
            data.planId,
            data.name,
            data.durationInMonths,
            data.priceMinor,
            data.currency,
            data.isRecurrent,
            data.description,
            data.features,
            occurredAt,
            data.cardPaymentAllowed,
            data.nameEn,
            data.descriptionEn,
          ],
        );
        return;
      }
      case 'PaymentPlanStatusChanged':
        await manager.query(`UPDATE payment_plans SET status = $2, updated_at = $3 WHERE id = $1`, [
          event.data.planId,
          event.data.status,
          occurredAt,
        ]);
        return;
      case 'PaymentPlanDeleted':
        await manager.query(`DELETE FROM payment_plans WHERE id = $1`, [event.data.planId]);
        return;
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query(`DELETE FROM payment_plans`);
  }
}
