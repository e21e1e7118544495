import type { NotificationPageRequest } from '@kupa/proto';

/** What one client was sent, newest first, for staff: read or not, and where its mail is. */
export class SearchClientNotificationsQuery {
  constructor(
    readonly userUuid: string,
    readonly request: NotificationPageRequest,
  ) {}
}
