import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CardCheckouts, type CardSettlement } from '../../application/card-checkout.service';
import { SettleCardPaymentCommand } from './settle-card-payment.command';

/** The second step of card checkout: the report, the credit and the purchase in one append (`CardCheckouts`). */
@CommandHandler(SettleCardPaymentCommand)
export class SettleCardPaymentHandler implements ICommandHandler<SettleCardPaymentCommand, CardSettlement> {
  constructor(private readonly checkouts: CardCheckouts) {}

  execute({ deposit, report, context, causationId }: SettleCardPaymentCommand): Promise<CardSettlement> {
    return this.checkouts.settle({ deposit, report, context, causationId });
  }
}
