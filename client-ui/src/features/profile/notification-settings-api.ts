import {
  API_ROUTES,
  type NotificationPreferences,
  type QuietHours,
  type TelegramLinkStatus,
  type TelegramLinkTokenResponse,
} from '@kupa/proto';
import { api } from '../../lib/api/api-client';

/** The profile's notification preferences and Telegram link (docs/adr/0102, docs/adr/0103). */
export const NOTIFICATION_PREFERENCES_QUERY_KEY = ['notification-preferences'] as const;
export const TELEGRAM_LINK_QUERY_KEY = ['telegram-link'] as const;

/** What PUT sends: the whole setting; quiet hours are left out when off (the API refuses a null there). */
export type NotificationPreferencesChange = Omit<NotificationPreferences, 'quietHours'> & { quietHours?: QuietHours };

export const notificationSettingsApi = {
  preferences: () => api.get<NotificationPreferences>(API_ROUTES.myNotificationPreferences),
  replacePreferences: (body: NotificationPreferencesChange) =>
    api.put<NotificationPreferences>(API_ROUTES.myNotificationPreferences, body),
  telegram: () => api.get<TelegramLinkStatus>(API_ROUTES.myTelegram),
  telegramLinkToken: () => api.post<TelegramLinkTokenResponse>(API_ROUTES.myTelegramLinkToken),
  unlinkTelegram: () => api.delete<void>(API_ROUTES.myTelegram),
};
