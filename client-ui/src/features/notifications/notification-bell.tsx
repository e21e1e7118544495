import Badge from '@mui/material/Badge';
import NotificationsOutlinedIcon from '@mui/icons-material/NotificationsOutlined';
import IconButton from '@mui/material/IconButton';
import { createLink } from '@tanstack/react-router';
import { useT } from '../../lib/i18n/i18n';
import { useNotifications } from './notifications-query';

const IconLink = createLink(IconButton);

/** The most unread notifications the badge counts; more show as "99+". */
const UNREAD_SHOWN_MAX = 99;

/**
 * The top bar's bell: the unread count, opening the notifications page. The count is said once, in the link's name;
 * the badge only shows it (hidden from assistive technology), and there is no badge at all without unread ones: MUI
 * keeps a hidden badge's "0" in the page, which a screen reader's user would hear beside a name without it.
 */
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
      {unread > 0 ? (
        <Badge
          badgeContent={unread}
          color="error"
          max={UNREAD_SHOWN_MAX}
          data-testid="notification-unread"
          slotProps={{ badge: { 'aria-hidden': true } }}
        >
          <NotificationsOutlinedIcon />
        </Badge>
      ) : (
        <NotificationsOutlinedIcon />
      )}
    </IconLink>
  );
}
