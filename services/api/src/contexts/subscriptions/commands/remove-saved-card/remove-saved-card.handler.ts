import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SavedCards } from '../../application/saved-cards';
import { RemoveSavedCardCommand } from './remove-saved-card.command';

@CommandHandler(RemoveSavedCardCommand)
export class RemoveSavedCardHandler implements ICommandHandler<RemoveSavedCardCommand, void> {
  constructor(private readonly cards: SavedCards) {}

  execute({ actor, context }: RemoveSavedCardCommand): Promise<void> {
    return this.cards.remove(actor.userUuid, context);
  }
}
