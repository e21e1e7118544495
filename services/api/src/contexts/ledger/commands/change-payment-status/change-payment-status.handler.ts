import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { eventMetadata } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { assert, DomainError } from '../../../../platform/decider/decider';
import { EventStore, type StreamAppend } from '../../../../platform/event-store/event-store.port';
import { ApiError } from '../../../../platform/http';
import { paymentStreamId, walletStreamId } from '../../domain/ledger.events';
import { creditsUser, moneyEffectOf, paymentDecider } from '../../domain/payment.decider';
import { walletDecider } from '../../domain/wallet.decider';
import { withVersionRetry } from '../../infrastructure/version-retry';
import { loadPayment, loadWallet } from '../../infrastructure/wallet-loader';
import { PaymentReader } from '../../projections/payments/payment-reader';
import { ChangePaymentStatusCommand } from './change-payment-status.command';

@CommandHandler(ChangePaymentStatusCommand)
export class ChangePaymentStatusHandler implements ICommandHandler<ChangePaymentStatusCommand, Payment> {
  constructor(
    private readonly store: EventStore,
    private readonly payments: PaymentReader,
    private readonly clock: Clock,
  ) {}

  async execute({
    actor,
    paymentId,
    status,
    confirmNegativeBalance,
    context,
  }: ChangePaymentStatusCommand): Promise<Payment> {
    // The owner never changes, so the read model may name the wallet to lock; the decision reads the streams.
    const row = await this.payments.findById(paymentId);
    if (!row) throw new ApiError('error.payment.not.found');
    // The instant is read under the locks, so the wallet's postings carry instants in booking order.
    const metadataUnderLock = () => eventMetadata(context, this.clock.now());

    await withVersionRetry(() =>
      this.store.transact([paymentStreamId(paymentId), walletStreamId(row.userUuid)], metadataUnderLock, async (tx) => {
        const payment = await loadPayment(tx, paymentId);
        const paymentEvents = paymentDecider.decide(
          { type: 'ChangePaymentStatus', paymentId, status, changedAt: tx.metadata.occurredAt },
          payment.state,
        );
        if (paymentEvents.length === 0 || payment.state === null) return { appends: [], result: null };
        assert(payment.state.userUuid === row.userUuid, `payment ${paymentId} belongs to the wallet that was locked`);
        const effect = moneyEffectOf(payment.state.status, status);
        const appends: StreamAppend[] = [
          { streamId: payment.streamId, expectedVersion: payment.version, events: paymentEvents },
        ];
        if (effect !== null) {
          const wallet = await loadWallet(tx, row.userUuid);
          const walletEvents = walletDecider.decide(
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
          appends.push({ streamId: wallet.streamId, expectedVersion: wallet.version, events: walletEvents });
        }
        return { appends, result: null };
      }),
    );
    const updated = await this.payments.findById(paymentId);
    if (!updated) throw new DomainError('error.payment.not.found');
    return this.payments.toPayment(updated);
  }
}
