import { DataSource } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { minorToAmount } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { decideRefundToBalance, ledgerStreams } from '../../../ledger';
import { SubscriptionParties } from '../../application/subscription-parties';
import { endSubscriptionForRefund } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { SUBSCRIPTION_PAYMENTS_TABLE } from '../../projections/subscription-payments/subscription-payments.projection';
import { RefundPaymentToBalanceCommand } from './refund-payment-to-balance.command';
import type { RefundToBalanceResponse } from './refund-payment-to-balance.response';

/**
 * One append for the whole refund (ADR 0092): the refunded payment marked (under its stream's lock, so of two refunds
 * at once the second finds it refunded), the REFUND payment, the wallet's money back from `revenue:subscriptions`, and,
 * when staff end the subscription now, its `SubscriptionEnded` (CANCELED), which the provisioning processor turns into
 * disabling the account as for any ended subscription. A promo code's use stays counted: the code's stream is untouched.
 */
@CommandHandler(RefundPaymentToBalanceCommand)
export class RefundPaymentToBalanceHandler implements ICommandHandler<
  RefundPaymentToBalanceCommand,
  RefundToBalanceResponse
> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    private readonly parties: SubscriptionParties,
  ) {}

  async execute({
    paymentId,
    reason,
    subscriptionEnding,
    context,
  }: RefundPaymentToBalanceCommand): Promise<RefundToBalanceResponse> {
    const subscriptionId = await this.subscriptionPaidBy(paymentId);
    if (subscriptionId === null) return this.refuseUnpaidFor(paymentId, context);
    const owner = await this.parties.ownerOf(subscriptionId);
    const refundPaymentId = await ledgerStreams.nextPaymentId(this.dataSource.manager);
    const endNow = subscriptionEnding === 'NOW';
    const { result } = await this.pipeline.run({
      context,
      causationId: null,
      streams: {
        subscription: subscriptionStreams.ref(subscriptionId),
        wallet: ledgerStreams.wallet(owner.uuid),
        refunded: ledgerStreams.payment(paymentId),
        payment: ledgerStreams.payment(refundPaymentId),
      },
      decide: (loaded, { at }) => {
        const money = decideRefundToBalance(
          { wallet: loaded.wallet.state, payment: loaded.payment.state, refunded: loaded.refunded.state },
          {
            user: { uuid: owner.uuid, email: owner.email },
            refundedPaymentId: paymentId,
            refundPaymentId,
            subscriptionId,
            reason,
            endedSubscription: endNow,
            at,
          },
          randomUUID(),
        );
        const subscription = endNow ? endSubscriptionForRefund({ at }, loaded.subscription.state) : [];
        const amountMinor = loaded.refunded.state?.amountMinor ?? 0;
        return {
          events: { subscription, ...money },
          result: {
            refundedPaymentId: paymentId,
            refundPaymentId,
            amount: minorToAmount(amountMinor),
            subscriptionId,
            subscriptionEnding,
          },
        };
      },
    });
    return result;
  }

  /** The subscription a balance payment bought or renewed; null for any other payment, or none. */
  private async subscriptionPaidBy(paymentId: number): Promise<string | null> {
    const rows: Array<{ subscription_id: string }> = await this.dataSource.query(
      `SELECT subscription_id FROM ${SUBSCRIPTION_PAYMENTS_TABLE} WHERE payment_id = $1`,
      [paymentId],
    );
    return rows[0]?.subscription_id ?? null;
  }

  /** A payment that paid for no subscription: 404 when there is no such payment, else it cannot be refunded here. */
  private async refuseUnpaidFor(paymentId: number, context: RefundPaymentToBalanceCommand['context']): Promise<never> {
    await this.pipeline.run({
      context,
      causationId: null,
      streams: { refunded: ledgerStreams.paymentForReading(paymentId) },
      decide: ({ refunded }) => {
        throw new ApiError(refunded.state === null ? 'error.payment.not.found' : 'error.payment.not.refundable');
      },
    });
    throw new ApiError('error.payment.not.found');
  }
}
