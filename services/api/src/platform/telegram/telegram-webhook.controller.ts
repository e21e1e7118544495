import { Body, Controller, Headers, HttpCode, Inject, NotFoundException, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Update } from 'grammy/types';
import { Public } from '../auth';
import { sameText } from '../crypto';
import { ApiError } from '../http';
import { APP_CONFIG, type AppConfig } from '../config';
import { TelegramUpdates } from './telegram-updates';

export const TELEGRAM_WEBHOOK_PATH = 'telegram/webhook';
export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * Where Telegram POSTs updates in webhook mode (docs/adr/0103-telegram-channel.md). Only a request carrying the
 * configured secret in `X-Telegram-Bot-Api-Secret-Token` (compared in constant time) is read; any other is refused
 * before its body is looked at. Not Telegram's to see, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Controller(TELEGRAM_WEBHOOK_PATH)
export class TelegramWebhookController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly updates: TelegramUpdates,
  ) {}

  @Post()
  @Public()
  @HttpCode(200)
  async receive(@Headers(TELEGRAM_SECRET_HEADER) secret: unknown, @Body() update: Update): Promise<{ ok: true }> {
    const telegram = this.config.telegram;
    if (telegram === null || telegram.mode !== 'webhook' || telegram.webhookSecret === null)
      throw new NotFoundException();
    if (!sameText(secret, telegram.webhookSecret)) throw new ApiError('error.telegram.webhook.secret');
    if (typeof update !== 'object' || update === null || !Number.isSafeInteger(update.update_id))
      throw new ApiError('error.telegram.update.invalid');
    await this.updates.handle(update);
    return { ok: true };
  }
}
