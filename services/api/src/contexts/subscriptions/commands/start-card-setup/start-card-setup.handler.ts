import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CardSetupResponse } from '@kupa/proto';
import { SavedCards } from '../../application/saved-cards';
import { StartCardSetupCommand } from './start-card-setup.command';

/** A setup checkout for the caller, each one its own attempt: the card it saves replaces any saved before. */
@CommandHandler(StartCardSetupCommand)
export class StartCardSetupHandler implements ICommandHandler<StartCardSetupCommand, CardSetupResponse> {
  constructor(private readonly cards: SavedCards) {}

  async execute({ actor, context }: StartCardSetupCommand): Promise<CardSetupResponse> {
    const checkout = await this.cards.openSetup(
      { userUuid: actor.userUuid, email: actor.email },
      randomUUID(),
      context,
    );
    return { url: checkout.url };
  }
}
