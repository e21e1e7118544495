import { DataSource } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { decideWalletRefund, ledgerStreams } from '../../../ledger';
import { SubscriptionParties } from '../../application/subscription-parties';
import { failProvisioning } from '../../domain/subscription.decider';
import { subscriptionStreams } from '../../infrastructure/subscription-streams';
import { FailProvisioningCommand } from './fail-provisioning.command';

/**
 * The subscription ends CANCELED and, when it was paid, its price goes back to the balance as a REFUND from
 * `expense:refund`, in the same append. A trial has nothing to refund and locks only its own stream.
 */
@CommandHandler(FailProvisioningCommand)
export class FailProvisioningHandler implements ICommandHandler<FailProvisioningCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    private readonly parties: SubscriptionParties,
  ) {}

  async execute({ subscriptionId, reason, context, causationId }: FailProvisioningCommand): Promise<void> {
    const owner = await this.parties.ownerOf(subscriptionId);
    const row = await this.parties.subscription(subscriptionId);
    const subscription = subscriptionStreams.ref(subscriptionId);
    if (row.type !== 'REGULAR') {
      await this.pipeline.run({
        context,
        causationId,
        streams: { subscription },
        decide: (loaded, { at }) => ({
          events: { subscription: failProvisioning({ reason, refundPaymentId: null, at }, loaded.subscription.state) },
          result: null,
        }),
      });
      return;
    }
    const paymentId = await ledgerStreams.nextPaymentId(this.dataSource.manager);
    await this.pipeline.run({
      context,
      causationId,
      streams: { subscription, wallet: ledgerStreams.wallet(owner.uuid), payment: ledgerStreams.payment(paymentId) },
      decide: (loaded, { at }) => {
        const state = loaded.subscription.state;
        const failed = failProvisioning({ reason, refundPaymentId: paymentId, at }, state);
        if (failed.length === 0 || !state.exists) return { events: {}, result: null };
        const money = decideWalletRefund(
          { wallet: loaded.wallet.state, payment: loaded.payment.state },
          {
            user: { uuid: owner.uuid, email: owner.email },
            paymentId,
            subscriptionId,
            amountMinor: state.priceMinor,
            discountPercent: 0,
            at,
          },
          randomUUID(),
        );
        return { events: { subscription: failed, ...money }, result: null };
      },
    });
  }
}
