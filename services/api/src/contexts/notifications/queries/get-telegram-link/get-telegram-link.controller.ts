import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type TelegramLinkStatus, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { TelegramLinks } from '../../application/telegram-links';
import { TelegramLinkStatusDto } from '../../infrastructure/telegram.http';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('users/me/telegram')
export class GetTelegramLinkController {
  constructor(private readonly links: TelegramLinks) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: TelegramLinkStatusDto })
  @ApiErrors(400, 401, 403)
  @Roles(...USER_ROLES)
  @ApiOperation({ summary: "Whether the signed-in person's Telegram is linked, and whether Telegram is set up at all" })
  async get(@CurrentActor() actor: Actor): Promise<TelegramLinkStatus> {
    return this.links.status(actor.userUuid);
  }
}
