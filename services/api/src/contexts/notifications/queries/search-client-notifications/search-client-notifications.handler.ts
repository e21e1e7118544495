import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { LIMITS, type Page, type SentNotification } from '@kupa/proto';
import { DataSource } from 'typeorm';
import {
  NOTIFICATION_COLUMNS,
  type SentNotificationRow,
  sentNotificationOf,
} from '../../infrastructure/notification-rows';
import { SearchClientNotificationsQuery } from './search-client-notifications.query';

@QueryHandler(SearchClientNotificationsQuery)
export class SearchClientNotificationsHandler implements IQueryHandler<
  SearchClientNotificationsQuery,
  Page<SentNotification>
> {
  constructor(private readonly dataSource: DataSource) {}

  /** The mail's state comes from the outbox row under the same key (one indexed look-up per row of the page). */
  async execute({ userUuid, request }: SearchClientNotificationsQuery): Promise<Page<SentNotification>> {
    const page = request.page ?? LIMITS.pageDefault;
    const size = request.size ?? LIMITS.pageSizeDefault;
    const rows: SentNotificationRow[] = await this.dataSource.query(
      `SELECT ${NOTIFICATION_COLUMNS}, m.sent_at, m.skipped, m.last_error, m.id IS NOT NULL AS has_mail
         FROM client_notifications n LEFT JOIN mail_outbox m ON m.dedupe_key = n.occasion_key
        WHERE n.user_uuid = $1
        ORDER BY n.created_at DESC, n.id DESC LIMIT $2 OFFSET $3`,
      [userUuid, size, page * size],
    );
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(
      'SELECT count(*)::int AS total FROM client_notifications WHERE user_uuid = $1',
      [userUuid],
    );
    return {
      content: rows.map(sentNotificationOf),
      page,
      size,
      totalElements: total,
      totalPages: Math.ceil(total / size),
    };
  }
}
