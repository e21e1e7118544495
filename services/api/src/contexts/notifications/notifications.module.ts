import { Global, Inject, Logger, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock';
import { APP_CONFIG, type AppConfig } from '../../platform/config';
import { Schedules } from '../../platform/jobs';
import { EventTypeRegistry } from '../../platform/event-store';
import { MailDispatcher } from '../../platform/mail';
import { AuditMapperRegistry, AuditNameRegistry } from '../audit';
import { UserReader, UserSessions, UserTelegramLinks } from '../identity';
import { recordNotifications } from './application/client-notifications';
import { notificationChannels } from './infrastructure/notification-preferences.store';
import { Broadcasts } from './application/broadcasts';
import { NotificationPreferencesService } from './application/notification-preferences';
import { ChangeNotificationPreferencesController } from './commands/change-notification-preferences/change-notification-preferences.controller';
import { GetNotificationPreferencesController } from './queries/get-notification-preferences/get-notification-preferences.controller';
import { AnnouncementPreferenceController } from './commands/announcement-preference/announcement-preference.controller';
import { SendBroadcastController } from './commands/send-broadcast/send-broadcast.controller';
import { UnsubscribeAnnouncementsController } from './commands/unsubscribe-announcements/unsubscribe-announcements.controller';
import { ALL_BROADCAST_EVENT_TYPES } from './domain/broadcast.decider';
import { BroadcastMailKind } from './infrastructure/broadcast-mail';
import { UnsubscribeTokens } from './infrastructure/unsubscribe-tokens';
import {
  BROADCAST_AUDIT_MAPPERS,
  NOTIFICATION_PREFERENCES_AUDIT_MAPPERS,
  TELEGRAM_AUDIT_MAPPERS,
} from './notifications.audit';
import { ALL_NOTIFICATION_PREFERENCES_EVENT_TYPES } from './domain/notification-preferences.decider';
import { TelegramLinks } from './application/telegram-links';
import { TelegramBotCommands } from './application/telegram-bot-commands';
import { CreateTelegramLinkTokenController } from './commands/create-telegram-link-token/create-telegram-link-token.controller';
import { UnlinkTelegramController } from './commands/unlink-telegram/unlink-telegram.controller';
import { ALL_TELEGRAM_EVENT_TYPES } from './domain/telegram-link.decider';
import { GetTelegramLinkController } from './queries/get-telegram-link/get-telegram-link.controller';
import { Telegram, TelegramUpdates } from '../../platform/telegram';
import { Metrics } from '../../platform/observability';
import { BackgroundLoops } from '../../platform/workers';
import { enqueueTelegramNotices, readTelegramOutbox } from './infrastructure/telegram-outbox';
import { TELEGRAM_PER_CHAT_INTERVAL_MS, TelegramDeliverySweep } from './processors/telegram-delivery.sweep';
import { TelegramLinkStates } from './infrastructure/telegram-link-states';
import { TelegramOutboxPruningSweep } from './processors/telegram-outbox-pruning.sweep';
import { BroadcastDeliverySweep } from './processors/broadcast-delivery.sweep';
import { ProcessorLagAlertsSweep } from './processors/processor-lag-alerts.sweep';
import { StaffAlerts } from './application/staff-alerts';
import { ProcessorRunner } from '../../platform/projections';
import { BroadcastsController } from './queries/broadcasts/broadcasts.controller';
import { PreviewBroadcastController } from './queries/preview-broadcast/preview-broadcast.controller';
import { MarkAllNotificationsReadController } from './commands/mark-all-notifications-read/mark-all-notifications-read.controller';
import { MarkAllNotificationsReadHandler } from './commands/mark-all-notifications-read/mark-all-notifications-read.handler';
import { MarkNotificationReadController } from './commands/mark-notification-read/mark-notification-read.controller';
import { MarkNotificationReadHandler } from './commands/mark-notification-read/mark-notification-read.handler';
import { SearchClientNotificationsController } from './queries/search-client-notifications/search-client-notifications.controller';
import { SearchClientNotificationsHandler } from './queries/search-client-notifications/search-client-notifications.handler';
import { SearchMyNotificationsController } from './queries/search-my-notifications/search-my-notifications.controller';
import { SearchMyNotificationsHandler } from './queries/search-my-notifications/search-my-notifications.handler';

/**
 * The client's notifications (docs/product.md, Notifications; docs/adr/0083-notifications-and-reminders.md): what
 * a client was told, kept with whether it was read. Other contexts write them through `recordNotifications` in the
 * transaction that queues the mail; this module only answers the routes. Global because it binds identity's
 * `UserTelegramLinks` port, which identity's own (global) module injects without importing this one (ADR 0013), as
 * the ledger binds `UserBalances`; and because the writers of staff alerts (the ledger's and the subscriptions'
 * processors and sweeps, ADR 0106) inject `StaffAlerts` the same way.
 */
@Global()
@Module({
  // The literal `search` and `read-all` routes first, so that they are never read as an `:id`.
  controllers: [
    // `users/me/…` before `users/:uuid/…`.
    GetNotificationPreferencesController,
    ChangeNotificationPreferencesController,
    AnnouncementPreferenceController,
    SearchMyNotificationsController,
    MarkAllNotificationsReadController,
    MarkNotificationReadController,
    SearchClientNotificationsController,
    // Broadcasts (ADR 0091): the literal `preview` before `:id`.
    PreviewBroadcastController,
    SendBroadcastController,
    BroadcastsController,
    UnsubscribeAnnouncementsController,
    // Telegram (ADR 0103): the literal `link-token` route before the bare one.
    CreateTelegramLinkTokenController,
    GetTelegramLinkController,
    UnlinkTelegramController,
  ],
  providers: [
    SearchMyNotificationsHandler,
    MarkAllNotificationsReadHandler,
    MarkNotificationReadHandler,
    SearchClientNotificationsHandler,
    Broadcasts,
    UnsubscribeTokens,
    NotificationPreferencesService,
    TelegramLinks,
    TelegramBotCommands,
    { provide: UserTelegramLinks, useClass: TelegramLinkStates },
    StaffAlerts,
  ],
  exports: [UserTelegramLinks, StaffAlerts],
})
export class NotificationsModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserReader,
    private readonly clock: Clock,
    private readonly schedules: Schedules,
    private readonly mailDispatcher: MailDispatcher,
    private readonly tokens: UnsubscribeTokens,
    private readonly broadcasts: Broadcasts,
    private readonly eventTypes: EventTypeRegistry,
    private readonly auditMappers: AuditMapperRegistry,
    private readonly auditNames: AuditNameRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly userSessions: UserSessions,
    private readonly telegramUpdates: TelegramUpdates,
    private readonly telegramLinks: TelegramLinks,
    private readonly telegramBotCommands: TelegramBotCommands,
    private readonly telegram: Telegram,
    private readonly loops: BackgroundLoops,
    private readonly metrics: Metrics,
    private readonly staffAlerts: StaffAlerts,
    private readonly processorRunner: ProcessorRunner,
  ) {}

  onModuleInit(): void {
    // The new-device notice (ADR 0099): identity records it at sign-in, in this context's list.
    this.userSessions.useNotificationWriter(
      recordNotifications,
      async (manager, userUuid) => (await notificationChannels(manager, [userUuid]))(userUuid, 'new-device'),
      enqueueTelegramNotices,
    );
    for (const type of ALL_BROADCAST_EVENT_TYPES) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, BROADCAST_AUDIT_MAPPERS[type]);
    }
    for (const type of ALL_TELEGRAM_EVENT_TYPES) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, TELEGRAM_AUDIT_MAPPERS[type]);
    }
    for (const type of ALL_NOTIFICATION_PREFERENCES_EVENT_TYPES) {
      this.eventTypes.register(type);
      this.auditMappers.register(type, NOTIFICATION_PREFERENCES_AUDIT_MAPPERS[type]);
    }
    // The bot's conversations (ADR 0103): whatever reaches the webhook or the poll comes here once.
    this.telegramUpdates.register((update) => this.telegramLinks.handleUpdate(update));
    // A broadcast is named by its Hebrew subject, the house's language, which no later event changes.
    this.auditNames.registerRecordedName('BROADCAST', 'subjectHe');
    this.mailDispatcher.registerKind(new BroadcastMailKind(this.tokens));
    this.startTelegramDelivery();
    this.schedules.register(
      new BroadcastDeliverySweep(
        this.dataSource,
        this.users,
        this.clock,
        this.config.broadcastMailsPerMinute,
        this.broadcasts,
      ),
    );
  }

  onApplicationBootstrap(): void {
    // The bot's command menu (ADR 0103's amendment), set by the processes that serve HTTP, as the webhook is. Not
    // awaited: a slow or unreachable Telegram must not hold the start, and a failure is only logged.
    if (this.config.role !== 'worker') void this.telegramBotCommands.registerMenu();
  }

  /**
   * The Telegram outbox's sender (ADR 0104): a recurring job, so one process of the fleet sends at a time and the Bot
   * API's global limit is one budget; and its pruning, another. Without a bot nothing is sent; rows recorded meanwhile wait for one. The
   * outbox's depth is read at each scrape, as the mail outbox's is.
   */
  private startTelegramDelivery(): void {
    this.metrics.onScrape(async (metrics) => {
      const outbox = await readTelegramOutbox(this.dataSource, this.clock.now());
      metrics.telegramOutboxUnsent.set(outbox.unsent);
      metrics.telegramOutboxOldestUnsentSeconds.set(outbox.oldestUnsentSeconds);
    });
    // Pruned with or without a bot now: messages kept from when one was configured go all the same.
    this.schedules.register(
      new TelegramOutboxPruningSweep(this.dataSource, this.clock, this.config.telegramRetentionDays),
    );
    const bot = this.telegram.bot;
    const settings = this.config.telegram;
    if (bot === null || settings === null) return;
    const logger = new Logger('Telegram');
    const sweep = new TelegramDeliverySweep(this.dataSource, bot, this.clock, {
      limits: { messagesPerSecond: settings.messagesPerSecond, perChatIntervalMs: TELEGRAM_PER_CHAT_INTERVAL_MS },
      publicUrl: this.config.publicUrl,
      intervalMs: this.config.workerPollIntervalMs,
      languagesOf: async (userUuids) =>
        new Map((await this.users.findByUuids([...userUuids])).map((user) => [user.uuid, user.language])),
      onOutcome: (outcome) => this.metrics.recordTelegram(outcome),
      // The chat id and the text are personal: the log keeps the reason only.
      onError: (error) => logger.warn(error instanceof Error ? error.message : String(error)),
    });
    this.schedules.register(sweep);
    this.loops.register({ name: 'telegram-delivery-stop', start: () => undefined, stop: async () => sweep.stop() });
    // A lagging processor told to the staff once per episode (ADR 0106), on the metrics' own thresholds.
    this.schedules.register(
      new ProcessorLagAlertsSweep(
        this.dataSource,
        this.staffAlerts,
        this.clock,
        () => this.processorRunner.processorNames(),
        { events: this.config.processorLagAlertEvents, seconds: this.config.processorLagAlertSeconds },
      ),
    );
  }
}
