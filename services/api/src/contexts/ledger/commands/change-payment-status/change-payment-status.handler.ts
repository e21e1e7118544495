import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { creditsUser, type Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert, DomainError } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { moneyEffectOf, paymentDecider } from '../../domain/payment.decider';
import { walletDecider } from '../../domain/wallet.decider';
import { paymentStreams, walletStreams } from '../../infrastructure/ledger-streams';
import { PaymentReader } from '../../projections/payments/payment-reader';
import { ChangePaymentStatusCommand } from './change-payment-status.command';

@CommandHandler(ChangePaymentStatusCommand)
export class ChangePaymentStatusHandler implements ICommandHandler<ChangePaymentStatusCommand, Payment> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly payments: PaymentReader,
  ) {}

  async execute({
    actor,
    paymentId,
    status,
    confirmNegativeBalance,
    publicNote,
    context,
  }: ChangePaymentStatusCommand): Promise<Payment> {
    // The owner never changes, so the read model may name the wallet to lock; the decision reads the streams.
    const row = await this.payments.find(paymentId, 'staff');
    if (!row) throw new ApiError('error.payment.not.found');

    await this.pipeline.run({
      context,
      streams: { payment: paymentStreams.ref(paymentId), wallet: walletStreams.ref(row.userUuid) },
      decide: ({ payment, wallet }, { at }) => {
        const paymentEvents = paymentDecider.decide(
          { type: 'ChangePaymentStatus', paymentId, status, changedAt: at.toISOString(), publicNote },
          payment.state,
        );
        if (paymentEvents.length === 0 || payment.state === null) return { events: {}, result: null };
        assert(payment.state.userUuid === row.userUuid, `payment ${paymentId} belongs to the wallet that was locked`);
        const effect = moneyEffectOf(payment.state.status, status);
        const walletEvents =
          effect === null
            ? []
            : walletDecider.decide(
                {
                  type: 'SettlePaymentStatus',
                  userUuid: row.userUuid,
                  paymentId,
                  status,
                  effect,
                  userCredited: creditsUser(payment.state.type),
                  counterAccount: payment.state.counterAccount,
                  amountMinor: payment.state.amountMinor,
                  transactionId: randomUUID(),
                  confirmNegativeBalance,
                  actorUuid: actor.userUuid,
                },
                wallet.state,
              );
        return { events: { payment: paymentEvents, wallet: walletEvents }, result: null };
      },
    });
    const updated = await this.payments.find(paymentId, 'staff');
    if (!updated) throw new DomainError('error.payment.not.found');
    return updated;
  }
}
