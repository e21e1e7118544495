import { Controller, Delete, HttpCode } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { RemoveSavedCardCommand } from './remove-saved-card.command';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('users/me/saved-card')
export class RemoveSavedCardController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Removes the caller's saved card at any time: never charged again, detached at the card provider, and every
   * subscription whose renewal used it is paid from the balance again (docs/adr/0085-saved-cards.md). 409
   * `error.card.not.saved` without a card.
   */
  @Delete()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The card is removed' })
  @ApiErrors(400, 401, 403, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  async remove(@CurrentActor() actor: Actor, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new RemoveSavedCardCommand(actor, context));
  }
}
