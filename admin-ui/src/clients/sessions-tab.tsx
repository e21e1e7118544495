import {
  countryName,
  IP2LOCATION_ATTRIBUTION_LEAD,
  IP2LOCATION_URL,
  keptOnOneLine,
  STAFF_SESSION_END_REASONS,
  type StaffSessionEndReason,
  type User,
  type UserRole,
  type UserSessionView,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Link,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { type RaRecord, useDataProvider, useNotify, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { EmptyState } from '../shared/empty-state';
import { useLang } from '../shared/use-lang';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; sessions: UserSessionView[] };

function formatInstant(value: string, lang: string): string {
  return keptOnOneLine(
    new Date(value).toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }),
  );
}

/**
 * A client's live sessions (ADR 0099): device and the country of the sign-in (ADR 0101, with IP2Location LITE's
 * attribution its licence asks), address, sign-in and last use. Admins and managers see them; an admin
 * ends them all with a reason the client is told at their next request and a note for the activity log.
 */
export function SessionsTab() {
  const record = useRecordContext<User & RaRecord>();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useLang();
  const { permissions } = usePermissions<UserRole | null>();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [ending, setEnding] = useState(false);
  const [reason, setReason] = useState<StaffSessionEndReason>('SUSPICIOUS_ACTIVITY');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const userUuid = record?.userUuid;
  const load = useCallback(async () => {
    if (!userUuid) return;
    try {
      setState({ status: 'ready', sessions: await dataProvider.getClientSessions(userUuid) });
    } catch {
      setState({ status: 'failed' });
    }
  }, [dataProvider, userUuid]);
  useEffect(() => {
    void load();
  }, [load]);
  if (!record || !userUuid) return null;
  if (state.status === 'loading') return <CircularProgress size={24} />;
  if (state.status === 'failed') return <Alert severity="error">{translate('kupa.clients.sessions.failed')}</Alert>;
  const end = async () => {
    setBusy(true);
    try {
      const { ended } = await dataProvider.endClientSessions(userUuid, { reason, note: note.trim() || undefined });
      notify('kupa.clients.sessions.ended', { type: 'success', messageArgs: { smart_count: ended } });
      setEnding(false);
      setNote('');
      await load();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const device = (session: UserSessionView) =>
    [
      [session.browser, session.os].filter(Boolean).join(' · ') ||
        translate(`kupa.clients.sessions.device.${session.deviceType}`),
      countryName(session.countryCode, lang),
    ]
      .filter(Boolean)
      .join(' · ');
  return (
    <Box data-testid="client-sessions">
      {state.sessions.length === 0 ? (
        <EmptyState testId="client-sessions-empty" title={translate('kupa.clients.sessions.empty')} />
      ) : (
        <List>
          {state.sessions.map((session) => (
            <ListItem key={session.id} divider data-testid="client-session">
              <ListItemText
                primary={device(session)}
                secondary={
                  <>
                    <bdi dir="ltr">{session.ipAddress ?? '—'}</bdi>
                    {' · '}
                    {translate('kupa.clients.sessions.started', { at: formatInstant(session.startedAt, lang) })}
                    {' · '}
                    {translate('kupa.clients.sessions.last_used', { at: formatInstant(session.lastUsedAt, lang) })}
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
      {state.sessions.length > 0 && (
        <Typography
          variant="caption"
          color="text.secondary"
          component="p"
          sx={{ mb: 2, textAlign: 'start' }}
          data-testid="client-sessions-attribution"
        >
          <bdi dir="ltr">
            {IP2LOCATION_ATTRIBUTION_LEAD}
            <Link href={IP2LOCATION_URL} target="_blank" rel="noopener noreferrer" color="inherit">
              {IP2LOCATION_URL}
            </Link>
          </bdi>
        </Typography>
      )}
      {permissions === 'ADMIN' && state.sessions.length > 0 && (
        <Button variant="outlined" color="error" onClick={() => setEnding(true)} data-testid="client-sessions-end">
          {translate('kupa.clients.sessions.end')}
        </Button>
      )}
      <Dialog open={ending} onClose={() => setEnding(false)} fullWidth maxWidth="sm">
        <DialogTitle>{translate('kupa.clients.sessions.end')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              select
              label={translate('kupa.clients.sessions.reason')}
              value={reason}
              onChange={(event) => setReason(event.target.value as StaffSessionEndReason)}
              helperText={translate('kupa.clients.sessions.reason_hint')}
              data-testid="client-sessions-reason"
            >
              {STAFF_SESSION_END_REASONS.map((value) => (
                <MenuItem key={value} value={value}>
                  {translate(`kupa.clients.sessions.reasons.${value}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={translate('kupa.clients.sessions.note')}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              helperText={translate('kupa.clients.sessions.note_hint')}
              slotProps={{ htmlInput: { maxLength: 255 } }}
              data-testid="client-sessions-note"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setEnding(false)}>{translate('ra.action.cancel')}</Button>
          <Button
            color="error"
            variant="contained"
            disabled={busy}
            onClick={() => void end()}
            data-testid="client-sessions-confirm"
          >
            {translate('kupa.clients.sessions.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
