import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { planForSale, planStreams } from '../../catalog';
import {
  dayVoucherExtensionKey,
  type DayVoucherPackage,
  type DayVoucherRedemptionOutcome,
  type DayVoucherRedemptionRequest,
  DayVoucherSubscriptions,
  redeemableDayCode,
  redeemDayVoucher,
  voucherBatchStreams,
} from '../../ledger';
import { assert } from '../../../kernel';
import { CommandPipeline } from '../../../platform/commands';
import { EventStore } from '../../../platform/event-store/event-store.port';
import { ApiError } from '../../../platform/http';
import { decideSubscriptionExtension, subscriptionExtensionStream } from './subscription-extensions';

/**
 * The ledger's `DayVoucherSubscriptions` port (docs/adr/0089-prepaid-vouchers.md): a day voucher's code and the days
 * it adds are one append under the batch's lock and the subscription's, so five clients typing one code get one
 * extension. A client without a subscription of the package is refused for now: creating one from a code is not
 * built (ADR 0089, "Not yet").
 */
@Injectable()
export class DayVoucherRedemptions extends DayVoucherSubscriptions {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  async packageOf(planId: string): Promise<DayVoucherPackage> {
    const plan = planForSale(await planStreams.currentState(this.store, planId));
    return { planId: plan.planId, planName: plan.name };
  }

  async redeem(request: DayVoucherRedemptionRequest): Promise<DayVoucherRedemptionOutcome> {
    const subscriptionId = await this.extendableOf(request.userUuid, request.planId);
    if (subscriptionId === null) {
      // A used or unfunded code answers as such first: the refusal below must not hide it.
      await this.pipeline.run({
        context: request.context,
        streams: { batch: voucherBatchStreams.ref(request.batchId) },
        decide: (loaded) => {
          redeemableDayCode(request.codeIndex, loaded.batch.state);
          throw new ApiError('error.voucher.subscription.needed', { planName: request.planName });
        },
      });
    }
    assert(subscriptionId !== null, 'a client without a subscription of the package was refused');
    const { result } = await this.pipeline.run({
      context: request.context,
      streams: {
        batch: voucherBatchStreams.ref(request.batchId),
        subscription: subscriptionExtensionStream(subscriptionId),
      },
      decide: (loaded, { at }) => {
        const batch = redeemDayVoucher(
          { codeIndex: request.codeIndex, userUuid: request.userUuid, subscriptionId, at },
          loaded.batch.state,
        );
        const [redeemed] = batch;
        const days = redeemed.type === 'VoucherCodeRedeemed' ? (redeemed.data.days ?? 0) : 0;
        const subscription = decideSubscriptionExtension(
          {
            subscriptionId,
            days,
            reason: request.label,
            source: 'VOUCHER',
            actorId: request.userUuid,
            voucherBatchId: request.batchId,
            idempotencyKey: dayVoucherExtensionKey(request.batchId, request.codeIndex),
          },
          loaded.subscription.state,
          at,
        );
        const [extended] = subscription;
        assert(extended?.type === 'SubscriptionExtended', 'an unused code extends the subscription');
        return {
          events: { batch, subscription },
          result: { subscriptionId, endDate: extended.data.endDate },
        };
      },
    });
    return result;
  }

  /** The client's subscription of the package that days can be added to; the latest ending first. */
  private async extendableOf(userUuid: string, planId: string): Promise<string | null> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM subscriptions
        WHERE user_uuid = $1 AND plan_id = $2 AND status IN ('ACTIVE', 'UNSUBSCRIBED', 'GRACE')
        ORDER BY end_date DESC NULLS LAST, id LIMIT 1`,
      [userUuid, planId],
    );
    return rows[0]?.id ?? null;
  }
}
