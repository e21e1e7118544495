import {
  BroadcastHandOffs1770500009110,
  Broadcasts1770000009100,
  ClientNotifications1770000008300,
  NotificationPreferences1770800010200,
  TelegramLinks1770600010310,
} from './infrastructure/notifications.migrations';

export { NotificationsModule } from './notifications.module';
export { type NotificationDraft, recordNotifications } from './application/client-notifications';
export { type ChannelsOf, notificationChannels, preferencesOf } from './infrastructure/notification-preferences.store';
export { reminderDaysFor } from './domain/notification-preferences';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const notificationsMigrations: Function[] = [
  ClientNotifications1770000008300,
  Broadcasts1770000009100,
  BroadcastHandOffs1770500009110,
  TelegramLinks1770600010310,
  NotificationPreferences1770800010200,
];
