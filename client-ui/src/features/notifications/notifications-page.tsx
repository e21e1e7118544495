import { useState } from 'react';
import type { ClientNotification } from '@kupa/proto';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNavigate } from '@tanstack/react-router';
import { formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { EmptyState, Page } from '../../lib/ui/page';
import { parseDepositSearch } from '../payments/deposit/deposit-search';
import { notificationText } from './notification-text';
import { useMarkRead, useNotifications } from './notifications-query';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';

/** The client's notifications, newest first; unread ones bold; acting on one marks it read (ADR 0083). */
export function NotificationsPage() {
  const { t } = useT();
  const [page, setPage] = useState(0);
  const { data } = useNotifications(page);
  const markRead = useMarkRead();
  const unread = data?.unreadCount ?? 0;
  return (
    <Page title={t('notifications.title')}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <ReadOnlyAction>
          <Button
            variant="outlined"
            data-testid="notifications-mark-all"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate(null)}
          >
            {t('notifications.markAllRead')}
          </Button>
        </ReadOnlyAction>
      </Stack>
      {data && data.content.length === 0 ? <EmptyState message={t('notifications.empty')} /> : null}
      <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="notifications-list">
        {data?.content.map((notification) => (
          <NotificationItem
            key={notification.id}
            notification={notification}
            onOpen={() => {
              if (notification.readAt === null) markRead.mutate(notification.id);
            }}
          />
        ))}
      </Stack>
      {data && data.totalPages > 1 ? (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
          <Button disabled={page === 0} onClick={() => setPage(page - 1)}>
            {t('notifications.previous')}
          </Button>
          <Button disabled={page + 1 >= data.totalPages} onClick={() => setPage(page + 1)}>
            {t('notifications.next')}
          </Button>
        </Stack>
      ) : null}
    </Page>
  );
}

function NotificationItem({ notification, onOpen }: { notification: ClientNotification; onOpen: () => void }) {
  const { t, lang } = useT();
  const navigate = useNavigate();
  const text = notificationText(notification, t, lang);
  const unread = notification.readAt === null;
  const act = () => {
    onOpen();
    // The top-up and the subscription are screens of this app; the link is kept as a path. The top-up keeps its
    // amount (`?amountMinor=`), which the deposit form prefills: the reminder's one-click top-up (ADR 0083).
    const [path, query = ''] = notification.params.link.split('?');
    if (path === '/payments/deposit')
      void navigate({
        to: '/payments/deposit',
        search: parseDepositSearch(Object.fromEntries(new URLSearchParams(query))),
      });
    else if (notification.params.paymentId !== undefined)
      // A deposit or a transfer received (ADR 0105): the payment's own page.
      void navigate({ to: '/payments/$paymentId', params: { paymentId: String(notification.params.paymentId) } });
    else if (notification.params.subscriptionId)
      void navigate({
        to: '/subscriptions/$subscriptionId',
        params: { subscriptionId: notification.params.subscriptionId },
      });
  };
  return (
    <Paper
      component="li"
      variant="outlined"
      data-testid="notification"
      data-unread={unread}
      onClick={onOpen}
      sx={{
        p: 2,
        borderInlineStartWidth: unread ? 4 : 1,
        borderInlineStartStyle: 'solid',
        borderInlineStartColor: unread ? 'primary.main' : 'divider',
      }}
    >
      <Stack spacing={1}>
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ alignItems: 'baseline', justifyContent: 'space-between', flexWrap: 'wrap' }}
        >
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: unread ? 700 : 400 }}>
            {text.title}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {unread ? <Chip size="small" color="primary" label={t('notifications.unread')} /> : null}
            <Typography variant="body2" color="text.secondary">
              <bdi>{formatDateTime(notification.createdAt, lang)}</bdi>
            </Typography>
          </Stack>
        </Stack>
        <Typography variant="body2" sx={{ fontWeight: unread ? 600 : 400, whiteSpace: 'pre-line' }}>
          {text.body}
        </Typography>
        {text.action === null ? null : (
          <Box>
            <Button
              variant={unread ? 'contained' : 'outlined'}
              size="small"
              data-testid="notification-action"
              onClick={(event) => {
                event.stopPropagation();
                act();
              }}
            >
              {text.action}
            </Button>
          </Box>
        )}
      </Stack>
    </Paper>
  );
}
