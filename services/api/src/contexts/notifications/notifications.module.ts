import { Module } from '@nestjs/common';
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
 * transaction that queues the mail; this module only answers the routes.
 */
@Module({
  // The literal `search` and `read-all` routes first, so that they are never read as an `:id`.
  controllers: [
    SearchMyNotificationsController,
    MarkAllNotificationsReadController,
    MarkNotificationReadController,
    SearchClientNotificationsController,
  ],
  providers: [
    SearchMyNotificationsHandler,
    MarkAllNotificationsReadHandler,
    MarkNotificationReadHandler,
    SearchClientNotificationsHandler,
  ],
})
export class NotificationsModule {}
