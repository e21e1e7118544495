import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ClientNotification } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { NOTIFICATION_COLUMNS, notificationOf, type NotificationRow } from '../../infrastructure/notification-rows';
import { MarkNotificationReadCommand } from './mark-notification-read.command';

@CommandHandler(MarkNotificationReadCommand)
export class MarkNotificationReadHandler implements ICommandHandler<MarkNotificationReadCommand, ClientNotification> {
  constructor(private readonly dataSource: DataSource) {}

  /** Keeps the first reading's time: marking again changes nothing. */
  async execute({ userUuid, notificationId, at }: MarkNotificationReadCommand): Promise<ClientNotification> {
    const rows: NotificationRow[] = await this.dataSource.query(
      // Through a CTE, so that the answer is the rows (TypeORM answers a bare UPDATE with [rows, count]).
      `WITH n AS (UPDATE client_notifications SET read_at = COALESCE(read_at, $3::timestamptz)
                   WHERE id = $1 AND user_uuid = $2 RETURNING *)
       SELECT ${NOTIFICATION_COLUMNS} FROM n`,
      [notificationId, userUuid, at],
    );
    if (rows.length === 0) throw new ApiError('error.notification.not.found');
    return notificationOf(rows[0]);
  }
}
