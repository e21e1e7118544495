import { Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { CardSetupResponse } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { StartCardSetupCommand } from './start-card-setup.command';

export class CardSetupResponseDto implements CardSetupResponse {
  @ApiProperty({ format: 'uri', description: "The card provider's hosted page where the card is saved" })
  url: string;
}

@ApiTags('payments')
@ApiBearerAuth()
@Controller('users/me/saved-card')
export class StartCardSetupController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Opens the card provider's hosted page that saves a card for automatic renewals and charges nothing
   * (docs/adr/0085-saved-cards.md; the sandbox card's test page where it stands in for Stripe, ADR 0087). The card is
   * recorded when the provider's webhook says so; it replaces a card saved before. 409
   * `error.card.balance.payments.off` while the operator's switch is off, 503 `error.card.provider.unavailable` where
   * there is no card provider.
   */
  @Post('setup')
  @ApiCreatedResponse({ type: CardSetupResponseDto })
  @ApiErrors(400, 401, 403, 409, 503)
  @Roles('CLIENT', 'AMBASSADOR')
  start(@CurrentActor() actor: Actor, @ReqContext() context: RequestContext): Promise<CardSetupResponse> {
    return this.commands.execute(new StartCardSetupCommand(actor, context));
  }
}
