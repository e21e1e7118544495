import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { UserReader } from '../../identity';
import { notificationChannels } from '../infrastructure/notification-preferences.store';
import type { TelegramNoticeKind, TelegramNoticeParams } from '../infrastructure/telegram-notice-texts';
import {
  enqueueTelegramChatNotices,
  enqueueTelegramNotices,
  type TelegramChatNotice,
  type TelegramNotice,
} from '../infrastructure/telegram-outbox';

/** The kinds a staff alert may be (docs/adr/0106-staff-alerts.md). */
export type StaffAlertKind = Extract<TelegramNoticeKind, `staff-${string}`>;

/**
 * One fact an operator wants at once, as the code that knows it records it: `key` names the causing event
 * (`large-deposit:<eventId>`), so a writer that runs again records nothing twice.
 */
export interface StaffAlert {
  key: string;
  kind: StaffAlertKind;
  params: TelegramNoticeParams;
}

/**
 * Records staff alerts in the writer's transaction, through the Telegram outbox (ADR 0104's delivery: once per key
 * and recipient, retried, paced, 429 honoured): to the staff chat (`TELEGRAM_STAFF_CHAT_ID`, in
 * `TELEGRAM_STAFF_CHAT_LANGUAGE`) when one is configured, and to each active staff member (ADMIN, MANAGER) whose own
 * linked chat keeps `staff-alerts` on (the default), in their language. A client is never a recipient: the list is
 * the staff accounts', not the linked chats'. Without a bot nothing is recorded.
 */
@Injectable()
export class StaffAlerts {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UserReader,
  ) {}

  async record(manager: EntityManager, alerts: readonly StaffAlert[], now: Date): Promise<void> {
    const telegram = this.config.telegram;
    if (alerts.length === 0 || telegram === null) return;
    const chatId = telegram.staffChatId;
    if (chatId !== null) {
      const language = telegram.staffChatLanguage;
      const notices: TelegramChatNotice[] = alerts.map((alert) => ({
        dedupeKey: `staff:${alert.key}:chat:${chatId}`,
        chatId,
        kind: alert.kind,
        params: alert.params,
        language,
      }));
      await enqueueTelegramChatNotices(manager, notices, now);
    }
    const staff = await this.users.activeStaffUuids();
    if (staff.length === 0) return;
    const channelsOf = await notificationChannels(manager, staff);
    const reached = staff.filter((userUuid) => channelsOf(userUuid, 'staff-alerts').includes('telegram'));
    const notices: TelegramNotice[] = reached.flatMap((userUuid) =>
      alerts.map((alert) => ({
        dedupeKey: `staff:${alert.key}:user:${userUuid}`,
        userUuid,
        kind: alert.kind,
        params: alert.params,
      })),
    );
    await enqueueTelegramNotices(manager, notices, now);
  }
}
