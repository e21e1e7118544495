import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Payment, PaymentRecordedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { customerAuthorLabel } from '../../domain/payment-authors';
import { paymentDecider } from '../../domain/payment.decider';
import { manualCounterAccount, walletDecider } from '../../domain/wallet.decider';
import { IdempotencyKeys } from '../../infrastructure/idempotency-keys';
import { IdempotentCommands } from '../../infrastructure/idempotent-commands';
import { nextPaymentIds, paymentStreams, walletStreams } from '../../infrastructure/ledger-streams';
import { paymentPayload } from '../../projections/payments/payment-reader';
import { actorLabelOf } from '../../projections/payments/payments.projection';
import { RecordManualPaymentCommand } from './record-manual-payment.command';

export const RECORD_MANUAL_PAYMENT_ROUTE = 'POST /payments';

@CommandHandler(RecordManualPaymentCommand)
export class RecordManualPaymentHandler implements ICommandHandler<RecordManualPaymentCommand, Payment> {
  constructor(
    private readonly commands: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
  ) {}

  async execute(command: RecordManualPaymentCommand): Promise<Payment> {
    const { actor, userUuid, amountMinor, action, comment, correction, publicNote, context } = command;
    const idempotency = this.keys.request(actor.userUuid, command.idempotencyKey, RECORD_MANUAL_PAYMENT_ROUTE, {
      userUuid,
      amountMinor,
      action,
      comment,
      correction,
      // Only a note that was sent is part of the request, so keys stored before notes existed still match.
      ...(publicNote !== null ? { publicNote } : {}),
    });
    const known = await this.keys.replayIfKnown(idempotency);
    if (known) return known;

    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);

    return this.commands.run(idempotency, {
      context,
      streams: { wallet: walletStreams.ref(userUuid), payment: paymentStreams.ref(paymentId) },
      decide: ({ wallet, payment }, { at, metadata }) => {
        const author = actorLabelOf({ metadata });
        const publicAuthor = customerAuthorLabel(metadata.actor, userUuid, null);
        const transactionId = randomUUID();
        const fields = { userUuid, paymentId, amountMinor, correction, reason: comment, transactionId };
        const walletEvents = walletDecider.decide(
          action === 'DEPOSIT' ? { type: 'RecordManualDeposit', ...fields } : { type: 'RecordWithdrawal', ...fields },
          wallet.state,
        );
        const recorded: PaymentRecordedData = {
          paymentId,
          userUuid,
          userEmail: user.email,
          type: action === 'DEPOSIT' ? 'DEPOSIT' : 'WITHDRAW',
          method: 'MANUAL_TRANSFER',
          aggregator: 'MANUAL',
          status: 'SUCCESS',
          amountMinor,
          currency: 'USD',
          comment,
          publicNote,
          counterAccount: manualCounterAccount(correction),
          correction,
          transferId: null,
          senderProfileId: null,
          recipientProfileId: null,
          createdAt: at.toISOString(),
        };
        return {
          events: {
            wallet: walletEvents,
            payment: paymentDecider.decide({ type: 'RecordPayment', payment: recorded }, payment.state),
          },
          result: paymentPayload(
            { ...recorded, updatedAt: recorded.createdAt },
            { createdBy: author, updatedBy: author, createdByPublic: publicAuthor, updatedByPublic: publicAuthor },
            'staff',
          ),
        };
      },
    });
  }
}
