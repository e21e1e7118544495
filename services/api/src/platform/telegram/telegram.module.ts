import { Global, Inject, Logger, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config';
import { Schedules } from '../jobs';
import { BackgroundLoops } from '../workers';
import { TelegramBotApi } from './telegram-bot-api';
import { TelegramPollingSweep } from './telegram-polling.sweep';
import { TelegramUpdates } from './telegram-updates';
import { TelegramUpdatesPruningSweep } from './telegram-updates-pruning.sweep';
import { TELEGRAM_WEBHOOK_PATH, TelegramWebhookController } from './telegram-webhook.controller';

/**
 * The bot, or its absence: `bot` is null when `TELEGRAM_BOT_TOKEN` is unset, and every Telegram feature then says it
 * is off rather than failing.
 */
export class Telegram {
  constructor(readonly bot: TelegramBotApi | null) {}
}

/**
 * Telegram's outside edge (docs/adr/0103-telegram-channel.md): grammY's Bot API client, the webhook route, the
 * long-polling job, and the once-only hand-over of updates to the handler a context registers. No business rule.
 */
@Global()
@Module({
  controllers: [TelegramWebhookController],
  providers: [
    {
      provide: Telegram,
      useFactory: (config: AppConfig) => new Telegram(config.telegram ? new TelegramBotApi(config.telegram) : null),
      inject: [APP_CONFIG],
    },
    {
      provide: TelegramUpdates,
      useFactory: (dataSource: DataSource) => new TelegramUpdates(dataSource),
      inject: [getDataSourceToken()],
    },
  ],
  exports: [Telegram, TelegramUpdates],
})
export class TelegramModule implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Telegram');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly telegram: Telegram,
    private readonly updates: TelegramUpdates,
    private readonly schedules: Schedules,
    private readonly loops: BackgroundLoops,
  ) {}

  onModuleInit(): void {
    // Whether or not a bot is configured now: claims kept from when one was are pruned all the same.
    this.schedules.register(new TelegramUpdatesPruningSweep(this.updates, this.config.telegramRetentionDays));
    const bot = this.telegram.bot;
    if (bot === null || bot.mode !== 'polling') return;
    // Registered everywhere like any sweep; the schedule's claim lets one process of the fleet poll at a time.
    const sweep = new TelegramPollingSweep(bot, this.updates, this.config.workerPollIntervalMs);
    this.schedules.register(sweep);
    this.loops.register({ name: 'telegram-polling-stop', start: () => undefined, stop: async () => sweep.stop() });
  }

  async onApplicationBootstrap(): Promise<void> {
    const bot = this.telegram.bot;
    const settings = this.config.telegram;
    if (bot === null || settings === null || settings.mode !== 'webhook' || settings.webhookSecret === null) return;
    if (this.config.role === 'worker') return;
    // Telegram keeps one webhook per bot: every API process sets the same address and secret, so the last one wins
    // harmlessly. A failure is logged, not fatal: the portal works without Telegram.
    try {
      await bot.setWebhook(`${this.config.publicUrl}/api/${TELEGRAM_WEBHOOK_PATH}`, settings.webhookSecret);
    } catch (error) {
      this.logger.error(`Telegram setWebhook failed: ${error instanceof Error ? error.message : error}`);
    }
  }
}
