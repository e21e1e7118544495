import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { LIMITS, type NotificationPage } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { NOTIFICATION_COLUMNS, notificationOf, type NotificationRow } from '../../infrastructure/notification-rows';
import { SearchMyNotificationsQuery } from './search-my-notifications.query';

@QueryHandler(SearchMyNotificationsQuery)
export class SearchMyNotificationsHandler implements IQueryHandler<SearchMyNotificationsQuery, NotificationPage> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userUuid, request }: SearchMyNotificationsQuery): Promise<NotificationPage> {
    const page = request.page ?? LIMITS.pageDefault;
    const size = request.size ?? LIMITS.pageSizeDefault;
    const rows: NotificationRow[] = await this.dataSource.query(
      `SELECT ${NOTIFICATION_COLUMNS} FROM client_notifications n WHERE n.user_uuid = $1
        ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
      [userUuid, size, page * size],
    );
    const [counts]: Array<{ total: number; unread: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE read_at IS NULL))::int AS unread
         FROM client_notifications WHERE user_uuid = $1`,
      [userUuid],
    );
    return {
      content: rows.map(notificationOf),
      page,
      size,
      totalElements: counts.total,
      totalPages: Math.ceil(counts.total / size),
      unreadCount: counts.unread,
    };
  }
}
