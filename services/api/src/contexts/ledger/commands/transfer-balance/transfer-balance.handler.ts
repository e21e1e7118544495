import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Payment, type PaymentRecordedData, PATTERNS, userAccount } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { UserReader, type UserView } from '../../../identity';
import { paymentStreamId, walletStreamId } from '../../domain/ledger.events';
import { paymentDecider } from '../../domain/payment.decider';
import { walletDecider } from '../../domain/wallet.decider';
import { IdempotencyKeys } from '../../infrastructure/idempotency-keys';
import { LedgerTransactions } from '../../infrastructure/ledger-transactions';
import { loadPayment, loadWallets, nextPaymentIds } from '../../infrastructure/wallet-loader';
import { paymentPayload } from '../../projections/payments/payment-reader';
import { actorLabelOf } from '../../projections/payments/payments.projection';
import { TransferBalanceCommand } from './transfer-balance.command';

export const TRANSFER_BALANCE_ROUTE = 'POST /payments/transfer';

@CommandHandler(TransferBalanceCommand)
export class TransferBalanceHandler implements ICommandHandler<TransferBalanceCommand, Payment> {
  constructor(
    private readonly transactions: LedgerTransactions,
    private readonly keys: IdempotencyKeys,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
  ) {}

  async execute({ actor, recipient, amountMinor, idempotencyKey, context }: TransferBalanceCommand): Promise<Payment> {
    const idempotency = this.keys.request(actor.userUuid, idempotencyKey, TRANSFER_BALANCE_ROUTE, {
      recipient,
      amountMinor,
    });
    const known = await this.keys.replayIfKnown(idempotency);
    if (known) return known;

    const [sender, receiver] = await Promise.all([
      this.users.findByUuid(actor.userUuid),
      this.findRecipient(recipient),
    ]);
    if (!sender) throw new ApiError('error.user.not.found');
    // Unknown, unconfirmed and blocked recipients look alike, so the answer tells nothing about other accounts.
    if (!receiver || receiver.status !== 'ACTIVE') throw new ApiError('error.user.not.found');
    if (receiver.uuid === sender.uuid) throw new ApiError('error.transfer.to.self');

    const [outPaymentId, inPaymentId] = await nextPaymentIds(this.dataSource.manager, 2);
    const transferId = randomUUID();
    const streamIds = [
      walletStreamId(sender.uuid),
      walletStreamId(receiver.uuid),
      paymentStreamId(outPaymentId),
      paymentStreamId(inPaymentId),
    ];

    return this.transactions.run(streamIds, context, idempotency, async (tx, occurredAt) => {
      const author = actorLabelOf(tx);
      const [senderWallet, receiverWallet] = await loadWallets(tx, [sender.uuid, receiver.uuid]);
      const outPayment = await loadPayment(tx, outPaymentId);
      const inPayment = await loadPayment(tx, inPaymentId);
      const transactionId = randomUUID();
      const transfer = { transferId, outPaymentId, inPaymentId, amountMinor, transactionId };
      const sent = walletDecider.decide(
        { type: 'SendTransfer', userUuid: sender.uuid, recipientUuid: receiver.uuid, ...transfer },
        senderWallet.state,
      );
      const received = walletDecider.decide(
        { type: 'ReceiveTransfer', userUuid: receiver.uuid, senderUuid: sender.uuid, ...transfer },
        receiverWallet.state,
      );
      const common = {
        method: 'BALANCE',
        aggregator: 'INTERNAL',
        status: 'SUCCESS',
        amountMinor,
        currency: 'USD',
        comment: null,
        correction: false,
        transferId,
        senderProfileId: sender.profileId,
        recipientProfileId: receiver.profileId,
        createdAt: occurredAt.toISOString(),
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
        appends: [
          { streamId: senderWallet.streamId, expectedVersion: senderWallet.version, events: sent },
          { streamId: receiverWallet.streamId, expectedVersion: receiverWallet.version, events: received },
          {
            streamId: outPayment.streamId,
            expectedVersion: outPayment.version,
            events: paymentDecider.decide({ type: 'RecordPayment', payment: outRecorded }, outPayment.state),
          },
          {
            streamId: inPayment.streamId,
            expectedVersion: inPayment.version,
            events: paymentDecider.decide({ type: 'RecordPayment', payment: inRecorded }, inPayment.state),
          },
        ],
        response: paymentPayload(
          { ...outRecorded, updatedAt: outRecorded.createdAt },
          { createdBy: author, updatedBy: author },
        ),
      };
    });
  }

  private findRecipient(recipient: string): Promise<UserView | null> {
    return PATTERNS.profileId.test(recipient)
      ? this.users.findByProfileId(recipient)
      : this.users.findByEmail(recipient.trim());
  }
}
