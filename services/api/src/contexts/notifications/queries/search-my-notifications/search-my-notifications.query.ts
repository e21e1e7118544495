import type { NotificationPageRequest } from '@kupa/proto';

/** A page of the signed-in client's own notifications, newest first, with their unread count. */
export class SearchMyNotificationsQuery {
  constructor(
    readonly userUuid: string,
    readonly request: NotificationPageRequest,
  ) {}
}
