import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { creditsUser, type Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert, DomainError } from '../../../../kernel';
import { CommandPipeline, type LoadedStream } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { moneyEffectOf, paymentDecider } from '../../domain/payment.decider';
import type { PaymentState } from '../../domain/payment.state';
import { walletDecider } from '../../domain/wallet.decider';
import type { WalletState } from '../../domain/wallet.state';
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

    // A deposit's bonus takes the deposit's status in the same append (docs/product.md, Referrals and bonuses).
    const bonusPaymentId = row.bonusPaymentId;
    const decide = (
      payment: LoadedStream<PaymentState | null>,
      wallet: LoadedStream<WalletState>,
      bonus: LoadedStream<PaymentState | null> | null,
      at: Date,
    ) => {
      const none = { events: { payment: [], wallet: [], bonus: [] }, result: null };
      const paymentEvents = paymentDecider.decide(
        { type: 'ChangePaymentStatus', paymentId, status, changedAt: at.toISOString(), publicNote },
        payment.state,
      );
      if (paymentEvents.length === 0 || payment.state === null) return none;
      assert(payment.state.userUuid === row.userUuid, `payment ${paymentId} belongs to the wallet that was locked`);
      assert(
        (payment.state.bonusPaymentId ?? null) === (bonus ? bonusPaymentId : null),
        `payment ${paymentId}'s bonus is the one that was locked`,
      );
      const effect = moneyEffectOf(payment.state.status, status);
      const bonusEvents = bonus
        ? paymentDecider.decide(
            { type: 'FollowDepositStatus', depositPaymentId: paymentId, status, changedAt: at.toISOString() },
            bonus.state,
          )
        : [];
      const bonusState = bonus?.state ?? null;
      // The bonus's money is on the books exactly while its deposit's is, so it moves the same way or not at all.
      assert(
        bonusState === null || moneyEffectOf(bonusState.status, status) === effect,
        `the bonus of payment ${paymentId} moves money with its deposit`,
      );
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
                bonus: bonusState
                  ? {
                      paymentId: bonusState.paymentId,
                      amountMinor: bonusState.amountMinor,
                      transactionId: randomUUID(),
                    }
                  : null,
              },
              wallet.state,
            );
      return { events: { payment: paymentEvents, wallet: walletEvents, bonus: bonusEvents }, result: null };
    };

    const streams = { payment: paymentStreams.ref(paymentId), wallet: walletStreams.ref(row.userUuid) };
    if (bonusPaymentId === null) {
      await this.pipeline.run({
        context,
        streams,
        decide: ({ payment, wallet }, { at }) => decide(payment, wallet, null, at),
      });
    } else {
      await this.pipeline.run({
        context,
        streams: { ...streams, bonus: paymentStreams.ref(bonusPaymentId) },
        decide: ({ payment, wallet, bonus }, { at }) => decide(payment, wallet, bonus, at),
      });
    }
    const updated = await this.payments.find(paymentId, 'staff');
    if (!updated) throw new DomainError('error.payment.not.found');
    return updated;
  }
}
