import type { NotificationPageRequest } from '@kupa/proto';
import { PageRequestDto } from '../../../platform/http';

/** A page of notifications, newest first (no filters or sorts: the list is short and read in one order). */
export class NotificationPageRequestDto extends PageRequestDto implements NotificationPageRequest {}
