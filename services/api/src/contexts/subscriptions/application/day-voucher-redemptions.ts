import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { planForSale, planStreams } from '../../catalog';
import {
  dayVoucherExtensionKey,
  type DayVoucherPackage,
  type DayVoucherPreview,
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
import { Clock } from '../../../platform/clock';
import { purchaseWithDayVoucher } from '../domain/subscription.decider';
import { addDays } from '../domain/subscription-periods';
import { LoginReservation, withUniqueLogin } from '../infrastructure/logins';
import { SubscriptionSecrets } from '../infrastructure/subscription-secrets';
import { subscriptionStreams } from '../infrastructure/subscription-streams';
import { SubscriptionReader } from '../projections/subscriptions/subscription-reader';
import { purchasedPlan } from './purchased-plan';
import { decideSubscriptionExtension, subscriptionExtensionStream } from './subscription-extensions';
import { SubscriptionParties } from './subscription-parties';

/**
 * The ledger's `DayVoucherSubscriptions` port (docs/adr/0089-prepaid-vouchers.md): a day voucher's code and the days
 * it adds are one append under the batch's lock and the subscription's, so five clients typing one code get one
 * extension. A client without a subscription of the package to extend gets a new one, as a purchase makes it (the
 * same `SubscriptionPurchased`, login reservation, password and provisioning), for nothing and with the code's days
 * as its first period, in one append with the code's `VoucherCodeRedeemed` under the batch's lock.
 */
@Injectable()
export class DayVoucherRedemptions extends DayVoucherSubscriptions {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly store: EventStore,
    private readonly dataSource: DataSource,
    private readonly parties: SubscriptionParties,
    private readonly secrets: SubscriptionSecrets,
    private readonly subscriptions: SubscriptionReader,
    private readonly clock: Clock,
  ) {
    super();
  }

  /**
   * The subscription a redemption now would extend and its end after the days, by the extension's rule (days after
   * the end, or from now once the end has passed); none when the code would start one. Read without a lock: the
   * redemption decides again under its locks.
   */
  async preview(request: { userUuid: string; planId: string; days: number }): Promise<DayVoucherPreview> {
    const extendable = await this.extendableOf(request.userUuid, request.planId);
    if (extendable === null) return { subscriptionId: null, endDate: null };
    const now = this.clock.now();
    const end = extendable.endDate === null ? now : new Date(extendable.endDate);
    const from = end.getTime() > now.getTime() ? end : now;
    return { subscriptionId: extendable.id, endDate: addDays(from, request.days).toISOString() };
  }

  async packageOf(planId: string): Promise<DayVoucherPackage> {
    const plan = planForSale(await planStreams.currentState(this.store, planId));
    return { planId: plan.planId, planName: plan.name };
  }

  async redeem(request: DayVoucherRedemptionRequest): Promise<DayVoucherRedemptionOutcome> {
    const subscriptionId = (await this.extendableOf(request.userUuid, request.planId))?.id ?? null;
    if (subscriptionId === null && request.newSubscription !== null)
      return this.start(request, request.newSubscription);
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
          result: { subscriptionId, endDate: extended.data.endDate, newSubscription: false },
        };
      },
    });
    return result;
  }

  /**
   * A new subscription of the package from the code: the batch, the new subscription's stream, the package (its terms
   * read under its lock, on sale) and the login's reservation are locked together, so of five redemptions of one code
   * one starts a subscription and the others find the code used. The password goes to `subscription_secrets` in the
   * same transaction, as a purchase's does; the provisioning processor creates the account from the event.
   */
  private async start(
    request: DayVoucherRedemptionRequest,
    credentials: { login: string; password: string },
  ): Promise<DayVoucherRedemptionOutcome> {
    const { login, password } = credentials;
    const user = await this.parties.existingUser(request.userUuid);
    const subscriptionId = randomUUID();
    const reservation = new LoginReservation(login, this.subscriptions);
    const { result } = await withUniqueLogin(() =>
      this.pipeline.run({
        context: request.context,
        streams: {
          batch: voucherBatchStreams.ref(request.batchId),
          plan: planStreams.lockedForReading(request.planId),
          subscription: subscriptionStreams.ref(subscriptionId),
          login: reservation.stream,
        },
        decide: (loaded, { at }) => {
          const batch = redeemDayVoucher(
            { codeIndex: request.codeIndex, userUuid: request.userUuid, subscriptionId, at },
            loaded.batch.state,
          );
          const [redeemed] = batch;
          assert(redeemed?.type === 'VoucherCodeRedeemed', 'a day code decides one VoucherCodeRedeemed');
          const subscription = purchaseWithDayVoucher(
            {
              subscriptionId,
              userUuid: user.uuid,
              userEmail: user.email,
              plan: purchasedPlan(planForSale(loaded.plan.state)),
              voucher: {
                batchId: request.batchId,
                codeIndex: request.codeIndex,
                days: redeemed.data.days ?? 0,
                label: request.label,
              },
              login,
              password,
              at,
            },
            loaded.subscription.state,
          );
          reservation.reserve(subscriptionId);
          return {
            events: { batch, subscription },
            result: { subscriptionId, endDate: null, newSubscription: true },
          };
        },
        alongside: (tx, _decision, { at }) =>
          this.secrets.write(tx.manager, { subscriptionId, version: 1, password, at }),
      }),
    );
    return result;
  }

  /** The client's subscription of the package that days can be added to; the latest ending first. */
  private async extendableOf(userUuid: string, planId: string): Promise<{ id: string; endDate: string | null } | null> {
    const rows: Array<{ id: string; end_date: Date | null }> = await this.dataSource.query(
      `SELECT id, end_date FROM subscriptions
        WHERE user_uuid = $1 AND plan_id = $2 AND status IN ('ACTIVE', 'UNSUBSCRIBED', 'GRACE')
        ORDER BY end_date DESC NULLS LAST, id LIMIT 1`,
      [userUuid, planId],
    );
    const row = rows[0];
    return row ? { id: row.id, endDate: row.end_date === null ? null : new Date(row.end_date).toISOString() } : null;
  }
}
