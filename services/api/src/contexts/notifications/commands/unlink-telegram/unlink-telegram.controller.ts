import { Controller, Delete, HttpCode } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { TelegramLinks } from '../../application/telegram-links';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('users/me/telegram')
export class UnlinkTelegramController {
  constructor(private readonly links: TelegramLinks) {}

  /** Unlinks the signed-in person's Telegram; 404 `error.telegram.not.linked` when none is. */
  @Delete()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Unlinked' })
  @ApiErrors(400, 401, 403, 404)
  @Roles(...USER_ROLES)
  @ApiOperation({ summary: "Unlinks the signed-in person's Telegram" })
  async unlink(@CurrentActor() actor: Actor, @ReqContext() context: RequestContext): Promise<void> {
    await this.links.unlinkFromPortal(actor.userUuid, context);
  }
}
