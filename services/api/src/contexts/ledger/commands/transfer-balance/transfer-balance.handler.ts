import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Payment, type PaymentRecordedData, userAccount } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { TwoFactorStepUp } from '../../../identity';
import { Clock } from '../../../../platform/clock';
import { customerAuthorLabel } from '../../domain/payment-authors';
import { paymentDecider } from '../../domain/payment.decider';
import { walletDecider } from '../../domain/wallet.decider';
import { IdempotencyKeys, IdempotentCommands } from '../../../../platform/idempotency';
import { nextPaymentIds, paymentStreams, walletStreams } from '../../infrastructure/ledger-streams';
import { TransferRecipients } from '../../infrastructure/transfer-recipients';
import { paymentPayload } from '../../projections/payments/payment-reader';
import { actorLabelOf } from '../../projections/payments/payments.projection';
import { TransferBalanceCommand } from './transfer-balance.command';

export const TRANSFER_BALANCE_ROUTE = 'POST /payments/transfer';

@CommandHandler(TransferBalanceCommand)
export class TransferBalanceHandler implements ICommandHandler<TransferBalanceCommand, Payment> {
  constructor(
    private readonly commands: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly recipients: TransferRecipients,
    private readonly dataSource: DataSource,
    private readonly stepUp: TwoFactorStepUp,
    private readonly clock: Clock,
  ) {}

  async execute({
    actor,
    recipient,
    amountMinor,
    idempotencyKey,
    context,
    otpCode,
  }: TransferBalanceCommand): Promise<Payment> {
    const idempotency = this.keys.request(actor.userUuid, idempotencyKey, TRANSFER_BALANCE_ROUTE, {
      recipient,
      amountMinor,
    });
    const known = await this.keys.replayIfKnown<Payment>(idempotency);
    if (known) return known;
    // Two reads at once: the sender with its step-up and the recipient in one (docs/adr/0129), and the payment ids;
    // the ids of a transfer refused are gaps, which are harmless.
    const [parties, [outPaymentId, inPaymentId]] = await Promise.all([
      this.recipients.findWithSender(recipient, actor.userUuid),
      nextPaymentIds(this.dataSource.manager, 2),
    ]);
    // A repeat of a transfer already made answers above without a new code; a new one proves its sender first.
    await this.stepUp.confirm(actor.userUuid, otpCode, this.clock.now(), { stepUpOn: parties.actorStepUpOn });
    const sender = parties.actor;
    const receiver = this.recipients.accept(parties.other, actor.userUuid);
    if (!sender) throw new ApiError('error.user.not.found');

    const transferId = randomUUID();
    return this.commands.run(idempotency, {
      context,
      // Four streams of its own and no side work but its key: it may share a transaction (docs/adr/0130).
      groupable: true,
      streams: {
        senderWallet: walletStreams.ref(sender.uuid),
        receiverWallet: walletStreams.ref(receiver.uuid),
        outPayment: paymentStreams.ref(outPaymentId),
        inPayment: paymentStreams.ref(inPaymentId),
      },
      decide: (loaded, { at, metadata }) => {
        const author = actorLabelOf({ metadata });
        const publicAuthor = customerAuthorLabel(metadata.actor, sender.uuid, null);
        const transactionId = randomUUID();
        const transfer = { transferId, outPaymentId, inPaymentId, amountMinor, transactionId };
        const sent = walletDecider.decide(
          { type: 'SendTransfer', userUuid: sender.uuid, recipientUuid: receiver.uuid, ...transfer },
          loaded.senderWallet.state,
        );
        const received = walletDecider.decide(
          { type: 'ReceiveTransfer', userUuid: receiver.uuid, senderUuid: sender.uuid, ...transfer },
          loaded.receiverWallet.state,
        );
        const common = {
          method: 'BALANCE',
          aggregator: 'INTERNAL',
          status: 'SUCCESS',
          amountMinor,
          currency: 'USD',
          comment: null,
          publicNote: null,
          correction: false,
          transferId,
          senderProfileId: sender.profileId,
          recipientProfileId: receiver.profileId,
          discountPercent: 0,
          createdAt: at.toISOString(),
        } as const;
        const outRecorded: PaymentRecordedData = {
          ...common,
          paymentId: outPaymentId,
          userUuid: sender.uuid,
          userEmail: sender.email,
          type: 'TRANSFER_OUT',
          counterAccount: userAccount(receiver.uuid),
        };
        const inRecorded: PaymentRecordedData = {
          ...common,
          paymentId: inPaymentId,
          userUuid: receiver.uuid,
          userEmail: receiver.email,
          type: 'TRANSFER_IN',
          counterAccount: userAccount(sender.uuid),
        };
        return {
          events: {
            senderWallet: sent,
            receiverWallet: received,
            outPayment: paymentDecider.decide({ type: 'RecordPayment', payment: outRecorded }, loaded.outPayment.state),
            inPayment: paymentDecider.decide({ type: 'RecordPayment', payment: inRecorded }, loaded.inPayment.state),
          },
          // The sender's own TRANSFER_OUT, as its owner reads it.
          result: paymentPayload(
            { ...outRecorded, updatedAt: outRecorded.createdAt },
            { createdBy: author, updatedBy: author, createdByPublic: publicAuthor, updatedByPublic: publicAuthor },
            'customer',
          ),
        };
      },
    });
  }
}
