import { ApiProperty } from '@nestjs/swagger';
import type { TelegramLinkStatus, TelegramLinkTokenResponse } from '@kupa/proto';

export class TelegramLinkStatusDto implements TelegramLinkStatus {
  @ApiProperty({ description: 'False when the service has no Telegram bot: the profile says Telegram is off' })
  configured: boolean;

  @ApiProperty()
  linked: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'The linked Telegram username, without @' })
  username: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  linkedAt: string | null;
}

export class TelegramLinkTokenDto implements TelegramLinkTokenResponse {
  @ApiProperty({ example: 'https://t.me/kupa_bot?start=3q2-7wEAAAA', description: "Opens the bot's link in Telegram" })
  deepLink: string;

  @ApiProperty({ format: 'date-time', description: 'The link works once, until then' })
  expiresAt: string;
}
