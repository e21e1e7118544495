import Badge from '@mui/material/Badge';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import IconButton from '@mui/material/IconButton';
import { createLink } from '@tanstack/react-router';
import { useT } from '../../lib/i18n/i18n';
import { useNotifications } from './notifications-query';

const IconLink = createLink(IconButton);

/** The top bar's bell: the unread count, opening the notifications page. */
export function NotificationBell() {
  const { t } = useT();
  const { data } = useNotifications();
  const unread = data?.unreadCount ?? 0;
  return (
    <IconLink
      to="/notifications"
      color="inherit"
      data-testid="notification-bell"
      aria-label={unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell')}
    >
      <Badge badgeContent={unread} color="error" max={99} data-testid="notification-unread">
        <NotificationsOutlinedIcon />
      </Badge>
    </IconLink>
  );
}
