import {
  BroadcastHandOffs1770500009110,
  Broadcasts1770000009100,
  ClientNotifications1770000008300,
  NotificationPreferences1770800010200,
  PaymentsInThePortal1770900010500,
  StaffAlerts1771000010600,
  TelegramLinks1770600010310,
  TelegramOutbox1770900010400,
} from './infrastructure/notifications.migrations';

export { NotificationsModule } from './notifications.module';
export { type NotificationDraft, recordNotifications } from './application/client-notifications';
export { deliverNotices, type NoticeDelivery } from './application/deliver-notices';
export { type ChannelsOf, notificationChannels, preferencesOf } from './infrastructure/notification-preferences.store';
export { reminderDaysFor } from './domain/notification-preferences';
/** The facts the bot tells a linked client, through ports the ledger and the subscriptions context bind (ADR 0103). */
export { ClientSubscriptions } from './application/client-subscriptions.port';
export {
  BOT_SUBSCRIPTION_STATUSES,
  type BotSubscription,
  type BotSubscriptions,
} from './infrastructure/telegram-bot-answers';
export { enqueueTelegramNotices, type TelegramNotice } from './infrastructure/telegram-outbox';
/** Staff alerts (ADR 0106): the writers record them in their own transaction; the pure rules they decide by. */
export { type StaffAlert, StaffAlerts } from './application/staff-alerts';
export { isLargeDepositAlert, type RenewalPassCounts, renewalPassAlertDue } from './domain/staff-alerts';
export { type TelegramNoticeKind, type TelegramNoticeParams } from './infrastructure/telegram-notice-texts';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const notificationsMigrations: Function[] = [
  ClientNotifications1770000008300,
  Broadcasts1770000009100,
  BroadcastHandOffs1770500009110,
  TelegramLinks1770600010310,
  NotificationPreferences1770800010200,
  TelegramOutbox1770900010400,
  PaymentsInThePortal1770900010500,
  StaffAlerts1771000010600,
];
