import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CardCheckoutResponse } from '@kupa/proto';
import { CardCheckouts } from '../../application/card-checkout.service';
import { CreateCardCheckoutCommand } from './create-card-checkout.command';

/** The first step of card checkout: the checkout opened with the purchase it pays for (`CardCheckouts`). */
@CommandHandler(CreateCardCheckoutCommand)
export class CreateCardCheckoutHandler implements ICommandHandler<CreateCardCheckoutCommand, CardCheckoutResponse> {
  constructor(private readonly checkouts: CardCheckouts) {}

  execute({ actor, planId, request, context }: CreateCardCheckoutCommand): Promise<CardCheckoutResponse> {
    const { login, password, promoCode } = request;
    return this.checkouts.open({ actor, planId, login, password, promoCode, context });
  }
}
