import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { minorToAmount, normalizeVoucherCode, type PaymentRecordedData, type VoucherRedemption } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { paymentDecider } from '../../domain/payment.decider';
import { WITHOUT_PERSONAL_FIELDS } from '../../domain/plain-payment';
import { redeemVoucher, VOUCHER_LIABILITY_ACCOUNT } from '../../domain/voucher-batch.decider';
import { walletDecider } from '../../domain/wallet.decider';
import {
  nextPaymentIds,
  paymentStreams,
  voucherBatchStreams,
  walletStreams,
} from '../../infrastructure/ledger-streams';
import { VoucherCodes } from '../../infrastructure/voucher-codes';
import { RedeemVoucherCommand } from './redeem-voucher.command';

/**
 * A client redeems a code: the batch records the code used, the wallet gets its worth from `liability:vouchers`, and
 * a DEPOSIT payment (method VOUCHER) tells the client, in one append under the batch's lock, so that of any number
 * of simultaneous redemptions of one code exactly one credits (docs/adr/0089-prepaid-vouchers.md).
 */
@CommandHandler(RedeemVoucherCommand)
export class RedeemVoucherHandler implements ICommandHandler<RedeemVoucherCommand, VoucherRedemption> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly codes: VoucherCodes,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
  ) {}

  async execute(command: RedeemVoucherCommand): Promise<VoucherRedemption> {
    const normalized = normalizeVoucherCode(command.code);
    // A mistyped code and an unknown one answer alike: both count against the guessing allowance.
    const found = normalized === null ? null : await this.codes.find(this.dataSource.manager, normalized);
    if (!found) throw new ApiError('error.voucher.code.invalid');
    const userUuid = command.actor.userUuid;
    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);

    const { result } = await this.pipeline.run({
      context: command.context,
      streams: {
        batch: voucherBatchStreams.ref(found.batchId),
        wallet: walletStreams.ref(userUuid),
        payment: paymentStreams.ref(paymentId),
      },
      decide: (loaded, { at }) => {
        const redemption = redeemVoucher(
          { codeIndex: found.codeIndex, userUuid, paymentId, transactionId: randomUUID(), at },
          loaded.batch.state,
        );
        const [redeemed] = redemption.wallet;
        const amountMinor = redeemed.type === 'VoucherRedeemed' ? redeemed.data.amountMinor : 0;
        const recorded: PaymentRecordedData = {
          ...WITHOUT_PERSONAL_FIELDS,
          paymentId,
          userUuid,
          userEmail: user.email,
          type: 'DEPOSIT',
          method: 'VOUCHER',
          aggregator: 'INTERNAL',
          status: 'SUCCESS',
          amountMinor,
          currency: 'USD',
          counterAccount: VOUCHER_LIABILITY_ACCOUNT,
          createdAt: at.toISOString(),
          bonusForPaymentId: null,
        };
        const balanceMinor = redemption.wallet.reduce(walletDecider.evolve, loaded.wallet.state).balanceMinor;
        return {
          events: {
            batch: redemption.batch,
            wallet: redemption.wallet,
            payment: paymentDecider.decide({ type: 'RecordPayment', payment: recorded }, loaded.payment.state),
          },
          result: { amount: minorToAmount(amountMinor), balance: minorToAmount(balanceMinor), paymentId },
        };
      },
    });
    return result;
  }
}
