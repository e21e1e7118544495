import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  minorToAmount,
  normalizeVoucherCode,
  type PaymentRecordedData,
  type VoucherBatch,
  type VoucherRedemption,
} from '@kupa/proto';
import { assert } from '../../../../kernel';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { UserBalances, UserReader } from '../../../identity';
import { DayVoucherSubscriptions } from '../../application/day-voucher-subscriptions.port';
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
import { findVoucherBatch } from '../../infrastructure/voucher-batches.reader';
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
    private readonly dayVouchers: DayVoucherSubscriptions,
    private readonly balances: UserBalances,
  ) {}

  async execute(command: RedeemVoucherCommand): Promise<VoucherRedemption> {
    const normalized = normalizeVoucherCode(command.code);
    // A mistyped code and an unknown one answer alike: both count against the guessing allowance.
    const found = normalized === null ? null : await this.codes.find(this.dataSource.manager, normalized);
    if (!found) throw new ApiError('error.voucher.code.invalid');
    const userUuid = command.actor.userUuid;
    const user = await this.users.findByUuid(userUuid);
    if (!user) throw new ApiError('error.user.not.found');
    // A batch's kind never changes after its generation, so the read model may route the code.
    const batch = await findVoucherBatch(this.dataSource.manager, found.batchId);
    if (batch?.kind === 'DAYS') return this.redeemDays(command, found, batch);
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
          result: {
            kind: 'MONEY' as const,
            amount: minorToAmount(amountMinor),
            balance: minorToAmount(balanceMinor),
            paymentId,
            days: null,
            planName: null,
            subscriptionId: null,
            endDate: null,
            newSubscription: false,
          },
        };
      },
    });
    return result;
  }

  /**
   * A DAYS code: the subscriptions context extends the client's subscription of the package with the code's days, or
   * starts one with them.
   */
  private async redeemDays(
    command: RedeemVoucherCommand,
    found: { batchId: string; codeIndex: number },
    batch: VoucherBatch,
  ): Promise<VoucherRedemption> {
    assert(batch.planId !== null && batch.planName !== null, `day batch ${batch.id} names its package`);
    const userUuid = command.actor.userUuid;
    const outcome = await this.dayVouchers.redeem({
      batchId: found.batchId,
      codeIndex: found.codeIndex,
      userUuid,
      planId: batch.planId,
      planName: batch.planName,
      label: batch.label,
      newSubscription: command.newSubscription,
      context: command.context,
    });
    const balanceMinor = (await this.balances.balancesOf([userUuid])).get(userUuid) ?? 0;
    return {
      kind: 'DAYS',
      amount: 0,
      balance: minorToAmount(balanceMinor),
      paymentId: null,
      days: batch.days,
      planName: batch.planName,
      subscriptionId: outcome.subscriptionId,
      endDate: outcome.endDate,
      newSubscription: outcome.newSubscription,
    };
  }
}
