import {
  enumLabel,
  formatMoney,
  LANGUAGE_LOCALES,
  keptOnOneLine,
  type Page,
  type SentNotification,
  transferSenderText,
  type User,
} from '@kupa/proto';
import { Alert, Box, Button, Chip, CircularProgress, List, ListItem, ListItemText, Stack } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { type RaRecord, useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { EmptyState } from '../shared/empty-state';
import { useLang } from '../shared/use-lang';
import { NotificationPreferencesPanel } from './notification-preferences-panel';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; page: Page<SentNotification> };

function formatDay(value: string | undefined, lang: string): string {
  if (!value) return '';
  return keptOnOneLine(
    new Date(value).toLocaleDateString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeZone: 'UTC' }),
  );
}

function formatInstant(value: string, lang: string): string {
  return keptOnOneLine(
    new Date(value).toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }),
  );
}

/**
 * The client's notification preferences (read only, ADR 0102) above what was sent to them: what they chose explains
 * what they got.
 */
export function NotificationsTab() {
  const record = useRecordContext<User & RaRecord>();
  if (!record?.userUuid) return null;
  return (
    <Box>
      <NotificationPreferencesPanel userUuid={record.userUuid} telegram={record.telegram} />
      <SentNotifications />
    </Box>
  );
}

/**
 * What was sent to the client (ADR 0083): each reminder with what it said, when, whether the client read it and where
 * its mail is. Both staff roles read it.
 */
function SentNotifications() {
  const record = useRecordContext<User & RaRecord>();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const translate = useTranslate();
  const lang = useLang();
  const [pageNumber, setPageNumber] = useState(0);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const userUuid = record?.userUuid;
  const load = useCallback(async () => {
    if (!userUuid) return;
    try {
      setState({ status: 'ready', page: await dataProvider.getClientNotifications(userUuid, pageNumber) });
    } catch {
      setState({ status: 'failed' });
    }
  }, [dataProvider, userUuid, pageNumber]);
  useEffect(() => {
    void load();
  }, [load]);
  if (!record) return null;
  if (state.status === 'loading') return <CircularProgress size={24} />;
  if (state.status === 'failed')
    return <Alert severity="error">{translate('kupa.clients.notifications.failed')}</Alert>;
  const { page } = state;
  if (page.content.length === 0)
    return <EmptyState testId="client-notifications-empty" title={translate('kupa.clients.notifications.empty')} />;
  const money = (minor: number | undefined) => formatMoney(minor ?? 0, LANGUAGE_LOCALES[lang === 'en' ? 'en' : 'he']);
  return (
    <Box data-testid="client-notifications">
      <List>
        {page.content.map((notification) => {
          const { params } = notification;
          const plan = params.planName ?? translate('kupa.clients.notifications.trial');
          const summary = translate(`kupa.clients.notifications.summary.${notification.kind}`, {
            plan,
            // What is missing for a reminder; what arrived for a deposit or a transfer; the balance left when low.
            amount: money(params.missingMinor ?? params.amountMinor ?? params.balanceMinor),
            threshold: money(params.thresholdMinor),
            sender: transferSenderText(params.senderName, params.senderProfileId),
            method: params.method ? enumLabel('paymentMethod', params.method, lang === 'en' ? 'en' : 'he') : '',
            subject: params.subject ?? '',
            date: formatDay(params.paymentDate ?? params.graceDeadline ?? params.endDate, lang),
            days: params.days ?? 0,
            reason: params.reason ?? '',
          });
          return (
            <ListItem
              key={notification.id}
              divider
              data-testid="client-notification"
              // On a phone the state chips go under the text rather than squeezing it.
              sx={{
                alignItems: { xs: 'stretch', sm: 'flex-start' },
                flexDirection: { xs: 'column', sm: 'row' },
                gap: 1,
              }}
            >
              <ListItemText
                primary={summary}
                secondary={formatInstant(notification.createdAt, lang)}
                slotProps={{ primary: { sx: { fontWeight: notification.readAt === null ? 700 : 400 } } }}
              />
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexShrink: 0, flexWrap: 'wrap' }}>
                <Chip
                  size="small"
                  data-testid="client-notification-read"
                  color={notification.readAt === null ? 'warning' : 'default'}
                  label={
                    notification.readAt === null
                      ? translate('kupa.clients.notifications.unread')
                      : translate('kupa.clients.notifications.read', {
                          at: formatInstant(notification.readAt, lang),
                        })
                  }
                />
                {notification.mailState ? (
                  <Chip
                    size="small"
                    variant="outlined"
                    data-testid="client-notification-mail"
                    label={translate(`kupa.clients.notifications.mail.${notification.mailState}`)}
                  />
                ) : null}
              </Stack>
            </ListItem>
          );
        })}
      </List>
      {page.totalPages > 1 ? (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
          <Button disabled={pageNumber === 0} onClick={() => setPageNumber(pageNumber - 1)}>
            {translate('ra.navigation.previous')}
          </Button>
          <Button disabled={pageNumber + 1 >= page.totalPages} onClick={() => setPageNumber(pageNumber + 1)}>
            {translate('ra.navigation.next')}
          </Button>
        </Stack>
      ) : null}
    </Box>
  );
}
