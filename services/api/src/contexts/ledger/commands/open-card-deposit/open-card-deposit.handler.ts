import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CardCheckoutResponse } from '@kupa/proto';
import { CardTopUps } from '../../application/card/card-top-ups';
import { OpenCardDepositCommand } from './open-card-deposit.command';

/** A card top-up's first step: the checkout at the provider and its PENDING deposit (`CardTopUps`). */
@CommandHandler(OpenCardDepositCommand)
export class OpenCardDepositHandler implements ICommandHandler<OpenCardDepositCommand, CardCheckoutResponse> {
  constructor(private readonly topUps: CardTopUps) {}

  execute({ actor, amountMinor, context }: OpenCardDepositCommand): Promise<CardCheckoutResponse> {
    return this.topUps.open(actor, amountMinor, context);
  }
}
