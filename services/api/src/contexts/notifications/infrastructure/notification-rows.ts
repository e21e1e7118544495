import type {
  ClientNotification,
  NotificationKind,
  NotificationMailState,
  NotificationParams,
  SentNotification,
} from '@kupa/proto';

export interface NotificationRow {
  id: string;
  kind: NotificationKind;
  params: NotificationParams;
  created_at: Date;
  read_at: Date | null;
}

export interface SentNotificationRow extends NotificationRow {
  sent_at: Date | null;
  skipped: boolean | null;
  last_error: string | null;
  has_mail: boolean;
}

export const NOTIFICATION_COLUMNS = 'n.id, n.kind, n.params, n.created_at, n.read_at';

export function notificationOf(row: NotificationRow): ClientNotification {
  return {
    id: row.id,
    kind: row.kind,
    params: row.params,
    createdAt: row.created_at.toISOString(),
    readAt: row.read_at?.toISOString() ?? null,
  };
}

export function sentNotificationOf(row: SentNotificationRow): SentNotification {
  return { ...notificationOf(row), mailState: mailStateOf(row) };
}

function mailStateOf(row: SentNotificationRow): NotificationMailState | null {
  if (!row.has_mail) return null;
  if (row.skipped) return 'SKIPPED';
  if (row.sent_at !== null) return 'SENT';
  return row.last_error === null ? 'PENDING' : 'RETRYING';
}
