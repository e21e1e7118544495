import { Controller, Header, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type TelegramLinkTokenResponse, USER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { TelegramLinks } from '../../application/telegram-links';
import { TelegramLinkTokenDto } from '../../infrastructure/telegram.http';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('users/me/telegram/link-token')
export class CreateTelegramLinkTokenController {
  constructor(private readonly links: TelegramLinks) {}

  /**
   * A one-time deep link to the bot, bound to the signed-in account and valid for `TELEGRAM_LINK_TOKEN_MINUTES`
   * (docs/adr/0103-telegram-channel.md); asking again voids the earlier one. 503 `error.telegram.not.configured`
   * without a bot.
   */
  @Post()
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({ type: TelegramLinkTokenDto })
  @ApiErrors(400, 401, 403, 503)
  @Roles(...USER_ROLES)
  @ApiOperation({ summary: 'A one-time link that opens the bot and links this Telegram to the signed-in account' })
  async create(@CurrentActor() actor: Actor): Promise<TelegramLinkTokenResponse> {
    return this.links.createLinkToken(actor.userUuid);
  }
}
