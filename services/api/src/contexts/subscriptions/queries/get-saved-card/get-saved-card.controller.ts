import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { CARD_PROVIDERS, type CardProvider, type SavedCardSummary, type SavedCardView } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserUuidPipe } from '../../infrastructure/params';
import { GetSavedCardQuery } from './get-saved-card.query';

export class SavedCardSummaryDto implements SavedCardSummary {
  @ApiProperty({ example: 'visa' })
  brand: string;

  @ApiProperty({ example: '4242', pattern: '^[0-9]{4}$' })
  last4: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 12 })
  expMonth: number;

  @ApiProperty({ type: 'integer' })
  expYear: number;

  @ApiProperty({ format: 'date-time' })
  savedAt: string;
}

export class SavedCardViewDto implements SavedCardView {
  @ApiProperty({
    description:
      'Whether a card can be saved here (a card provider, Stripe or the sandbox card; card balance payments on)',
  })
  available: boolean;

  @ApiProperty({
    enum: CARD_PROVIDERS,
    nullable: true,
    description: 'Who keeps a card saved here: `SANDBOX` is a test page where no real card is saved; null: no provider',
  })
  provider: CardProvider | null;

  @ApiPropertyOptional({ type: SavedCardSummaryDto, nullable: true })
  card: SavedCardSummaryDto | null;
}

/**
 * The saved card as a person recognises it (docs/adr/0085-saved-cards.md): brand, last four digits, expiry; never the
 * provider's ids. The client reads their own, staff any client's.
 */
@ApiTags('payments')
@ApiBearerAuth()
@Controller('users')
export class GetSavedCardController {
  constructor(private readonly queries: QueryBus) {}

  @Get('me/saved-card')
  @ApiOkResponse({ type: SavedCardViewDto })
  @ApiErrors(400, 401, 403)
  @Roles('CLIENT', 'AMBASSADOR')
  mine(@CurrentActor() actor: Actor): Promise<SavedCardView> {
    return this.queries.execute(new GetSavedCardQuery(actor.userUuid));
  }

  @Get(':uuid/saved-card')
  @ApiUuidParam('uuid', "The client's uuid")
  @ApiOkResponse({ type: SavedCardViewDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  ofClient(@Param('uuid', UserUuidPipe) userUuid: string): Promise<SavedCardView> {
    return this.queries.execute(new GetSavedCardQuery(userUuid));
  }
}
