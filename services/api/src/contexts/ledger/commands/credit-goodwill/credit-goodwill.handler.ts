import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Payment, PaymentRecordedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { IdempotencyKeys, IdempotentCommands } from '../../../../platform/idempotency';
import { UserReader } from '../../../identity';
import { customerAuthorLabel } from '../../domain/payment-authors';
import { paymentDecider } from '../../domain/payment.decider';
import { GOODWILL_ACCOUNT, walletDecider } from '../../domain/wallet.decider';
import { nextPaymentIds, paymentStreams, walletStreams } from '../../infrastructure/ledger-streams';
import { paymentPayload } from '../../projections/payments/payment-reader';
import { actorLabelOf } from '../../projections/payments/payments.projection';
import { CreditGoodwillCommand } from './credit-goodwill.command';

/** Not a route: the idempotency key's namespace for bulk goodwill credits, keyed by batch and client. */
export const CREDIT_GOODWILL_OPERATION = 'bulk goodwill credit';

@CommandHandler(CreditGoodwillCommand)
export class CreditGoodwillHandler implements ICommandHandler<CreditGoodwillCommand, Payment> {
  constructor(
    private readonly commands: IdempotentCommands,
    private readonly keys: IdempotencyKeys,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
  ) {}

  async execute(command: CreditGoodwillCommand): Promise<Payment> {
    const { actor, batchId, userUuid, amountMinor, reason, publicNote, context } = command;
    const idempotency = this.keys.request(actor.userUuid, `bulk:${batchId}:${userUuid}`, CREDIT_GOODWILL_OPERATION, {
      batchId,
      userUuid,
      amountMinor,
    });
    const known = await this.keys.replayIfKnown<Payment>(idempotency);
    if (known) return known;
    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);
    return this.commands.run(idempotency, {
      context,
      streams: { wallet: walletStreams.ref(userUuid), payment: paymentStreams.ref(paymentId) },
      decide: (loaded, { at, metadata }) => {
        const author = actorLabelOf({ metadata });
        const publicAuthor = customerAuthorLabel(metadata.actor, userUuid, null);
        const wallet = walletDecider.decide(
          { type: 'CreditGoodwill', userUuid, paymentId, batchId, amountMinor, reason, transactionId: randomUUID() },
          loaded.wallet.state,
        );
        const recorded: PaymentRecordedData = {
          paymentId,
          userUuid,
          userEmail: user.email,
          type: 'DEPOSIT',
          method: 'MANUAL_TRANSFER',
          aggregator: 'MANUAL',
          status: 'SUCCESS',
          amountMinor,
          currency: 'USD',
          comment: reason,
          publicNote,
          counterAccount: GOODWILL_ACCOUNT,
          correction: false,
          transferId: null,
          senderProfileId: null,
          recipientProfileId: null,
          discountPercent: 0,
          createdAt: at.toISOString(),
          bonusPaymentId: null,
          bonusForPaymentId: null,
        };
        return {
          events: {
            wallet,
            payment: paymentDecider.decide({ type: 'RecordPayment', payment: recorded }, loaded.payment.state),
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
