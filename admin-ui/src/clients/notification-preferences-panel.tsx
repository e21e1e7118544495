import {
  CLIENT_NOTIFICATION_PREFERENCE_KINDS,
  minorToAmount,
  capitalized,
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KIND_RULES,
  NOTIFICATION_PREFERENCE_KIND_LABELS,
  type NotificationChannel,
  type NotificationPreferenceKind,
  type NotificationPreferences,
  type UserTelegram,
} from '@kupa/proto';
import CheckIcon from '@mui/icons-material/Check';
import {
  Alert,
  Box,
  Card,
  CardContent,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { type ReactNode, useEffect, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { Ltr } from '../shared/ltr';
import { Money } from '../shared/money';
import { useLang } from '../shared/use-lang';
import { ClientTelegramState } from './telegram-state';

type LoadState =
  { status: 'loading' } | { status: 'failed' } | { status: 'ready'; preferences: NotificationPreferences };

/** One cell of the table: on (a tick), off (a dash) or not offered (empty), each said in words to a screen reader. */
function ChannelCell({
  kind,
  channel,
  preferences,
}: {
  kind: NotificationPreferenceKind;
  channel: NotificationChannel;
  preferences: NotificationPreferences;
}) {
  const translate = useTranslate();
  const offered = NOTIFICATION_KIND_RULES[kind].offered.includes(channel);
  const on = offered && (preferences.channels[kind] ?? []).includes(channel);
  const state = !offered ? 'not_offered' : on ? 'on' : 'off';
  return (
    <TableCell align="center" sx={{ px: 0.5 }} data-testid={`client-preference-${kind}-${channel}`} data-state={state}>
      {on ? <CheckIcon fontSize="small" color="success" aria-hidden /> : offered ? <span aria-hidden>—</span> : null}
      <Box component="span" sx={visuallyHidden}>
        {translate(`kupa.clients.notification_preferences.${state}`)}
      </Box>
    </TableCell>
  );
}

/**
 * A client's notification preferences as they chose them in the portal (docs/adr/0102-notification-preferences.md),
 * read only: support can answer "why did I get no mail?" but not change the choice. Kinds × channels, the first
 * reminder's lead days, the low-balance threshold and Telegram's quiet hours; above them, whether Telegram is linked
 * at all (ADR 0107), which comes with the client's record rather than the preferences.
 */
export function NotificationPreferencesPanel({ userUuid, telegram }: { userUuid: string; telegram?: UserTelegram }) {
  const dataProvider = useDataProvider<KupaDataProvider>();
  const translate = useTranslate();
  const lang = useLang();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    dataProvider.getClientNotificationPreferences(userUuid).then(
      (preferences) => current && setState({ status: 'ready', preferences }),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, userUuid]);

  const content = () => {
    if (state.status === 'loading') return <CircularProgress size={20} />;
    if (state.status === 'failed')
      return <Alert severity="error">{translate('kupa.clients.notification_preferences.failed')}</Alert>;
    const { preferences } = state;
    const { leadDays, lowBalanceThresholdMinor, quietHours } = preferences;
    const rows: Array<{ label: string; value: ReactNode; testId: string }> = [
      {
        label: translate('kupa.clients.notification_preferences.lead_days'),
        value:
          leadDays === null
            ? translate('kupa.clients.notification_preferences.lead_days_default')
            : translate('kupa.clients.notification_preferences.lead_days_value', { days: leadDays }),
        testId: 'client-preference-lead-days',
      },
      {
        label: translate('kupa.clients.notification_preferences.threshold'),
        value:
          lowBalanceThresholdMinor === null ? (
            translate('kupa.clients.notification_preferences.threshold_none')
          ) : (
            <Money amount={minorToAmount(lowBalanceThresholdMinor)} />
          ),
        testId: 'client-preference-threshold',
      },
      {
        label: translate('kupa.clients.notification_preferences.quiet_hours'),
        value:
          quietHours === null ? (
            translate('kupa.clients.notification_preferences.quiet_hours_none')
          ) : (
            <Ltr>
              {translate('kupa.clients.notification_preferences.quiet_hours_value', {
                from: quietHours.from,
                to: quietHours.to,
                zone: quietHours.timeZone,
              })}
            </Ltr>
          ),
        testId: 'client-preference-quiet-hours',
      },
    ];
    return (
      <>
        <Table size="small" sx={{ tableLayout: 'fixed', mb: 2 }} data-testid="client-preference-channels">
          <TableHead>
            <TableRow>
              <TableCell sx={{ px: 1, paddingInlineStart: 0 }}>
                {translate('kupa.clients.notification_preferences.kind')}
              </TableCell>
              {NOTIFICATION_CHANNELS.map((channel) => (
                <TableCell
                  key={channel}
                  align="center"
                  sx={{ px: 0.5, width: { xs: '4.25rem', sm: '6.5rem' }, overflowWrap: 'anywhere' }}
                >
                  {capitalized(NOTIFICATION_CHANNEL_LABELS[channel][lang], lang)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {CLIENT_NOTIFICATION_PREFERENCE_KINDS.map((kind) => (
              <TableRow key={kind}>
                <TableCell component="th" scope="row" sx={{ px: 1, paddingInlineStart: 0 }}>
                  {capitalized(NOTIFICATION_PREFERENCE_KIND_LABELS[kind][lang], lang)}
                </TableCell>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <ChannelCell key={channel} kind={kind} channel={channel} preferences={preferences} />
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gridTemplateColumns: 'minmax(0, auto) minmax(0, 1fr)', gap: 1 }}
        >
          {rows.map((row) => (
            <Box key={row.testId} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {row.label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0 }} data-testid={row.testId}>
                {row.value}
              </Typography>
            </Box>
          ))}
        </Box>
      </>
    );
  };

  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="client-notification-preferences">
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {translate('kupa.clients.notification_preferences.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('kupa.clients.notification_preferences.hint')}
        </Typography>
        <ClientTelegramState telegram={telegram} />
        {content()}
      </CardContent>
    </Card>
  );
}
