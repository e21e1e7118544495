import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CryptoDepositResponse } from '@kupa/proto';
import { CashierDeposits } from '../../application/cashier/cashier-deposits';
import { OpenCryptoDepositCommand } from './open-crypto-deposit.command';

@CommandHandler(OpenCryptoDepositCommand)
export class OpenCryptoDepositHandler implements ICommandHandler<OpenCryptoDepositCommand, CryptoDepositResponse> {
  constructor(private readonly deposits: CashierDeposits) {}

  async execute({ actor, amountMinor, method, context }: OpenCryptoDepositCommand): Promise<CryptoDepositResponse> {
    await this.deposits.assertCanOpen(actor.userUuid, amountMinor);
    return this.deposits.open(actor, amountMinor, method, context);
  }
}
