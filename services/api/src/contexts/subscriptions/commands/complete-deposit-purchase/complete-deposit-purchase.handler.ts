import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DepositPurchaseStatus } from '@kupa/proto';
import { DepositPurchaseFlow } from '../../application/deposit-purchase.service';
import { CompleteDepositPurchaseCommand } from './complete-deposit-purchase.command';

/** The second step of deposit-and-buy and deposit-and-renew (`DepositPurchaseFlow.complete`). */
@CommandHandler(CompleteDepositPurchaseCommand)
export class CompleteDepositPurchaseHandler implements ICommandHandler<
  CompleteDepositPurchaseCommand,
  DepositPurchaseStatus | null
> {
  constructor(private readonly flow: DepositPurchaseFlow) {}

  execute({ depositPaymentId, context, causationId }: CompleteDepositPurchaseCommand) {
    return this.flow.complete(depositPaymentId, { context, causationId });
  }
}
