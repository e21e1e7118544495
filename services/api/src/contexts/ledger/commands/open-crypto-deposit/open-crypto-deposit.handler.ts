import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CASHIER_DEFAULTS, type CryptoDepositResponse, minorToAmount } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ApiError } from '../../../../platform/http';
import { CashierDeposits } from '../../infrastructure/cashier/cashier-deposits';
import { OpenCryptoDepositCommand } from './open-crypto-deposit.command';

@CommandHandler(OpenCryptoDepositCommand)
export class OpenCryptoDepositHandler implements ICommandHandler<OpenCryptoDepositCommand, CryptoDepositResponse> {
  constructor(
    private readonly deposits: CashierDeposits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ actor, amountMinor, method, context }: OpenCryptoDepositCommand): Promise<CryptoDepositResponse> {
    const { cashierDepositMinMinor: minMinor, cashierDepositMaxMinor: maxMinor } = this.config;
    if (amountMinor < minMinor || amountMinor > maxMinor) {
      throw new ApiError('error.deposit.amount.out.of.range', {
        minAmount: minorToAmount(minMinor),
        maxAmount: minorToAmount(maxMinor),
      });
    }
    if ((await this.deposits.pendingCount(actor.userUuid)) >= CASHIER_DEFAULTS.pendingDepositsPerUserMax)
      throw new ApiError('error.cashier.too.many.pending');
    return this.deposits.open(actor, amountMinor, method, context);
  }
}
