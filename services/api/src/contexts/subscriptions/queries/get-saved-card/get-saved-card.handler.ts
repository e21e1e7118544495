import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { SavedCardView } from '@kupa/proto';
import { SavedCards } from '../../application/saved-cards';
import { GetSavedCardQuery } from './get-saved-card.query';

/** The saved card as a person recognises it, and whether one can be saved here (docs/adr/0085-saved-cards.md). */
@QueryHandler(GetSavedCardQuery)
export class GetSavedCardHandler implements IQueryHandler<GetSavedCardQuery, SavedCardView> {
  constructor(private readonly cards: SavedCards) {}

  execute({ userUuid }: GetSavedCardQuery): Promise<SavedCardView> {
    return this.cards.view(userUuid);
  }
}
