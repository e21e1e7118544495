import {
  type BroadcastDetail,
  type BroadcastPreview,
  type BroadcastSummary,
  type ClientFilterRequest,
  type CreateBroadcastRequest,
  CUSTOMER_ROLES,
  LIMITS,
  USER_STATUSES,
} from '@kupa/proto';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { ActivityLink } from '../shared/activity-link';
import { EmptyState } from '../shared/empty-state';
import { useEnumChoices } from '../shared/enum-choices';
import { Ltr } from '../shared/ltr';
import { useCommand } from '../shared/use-command';
import { useLang } from '../shared/use-lang';
import { toDayEnd, toDayStart } from '../providers/filter-values';

const EMPTY_CONTENT = { subjectHe: '', bodyHe: '', subjectEn: '', bodyEn: '' };

/** Registration days as the form holds them (`YYYY-MM-DD`, empty for no bound), both inclusive. */
export interface RegisteredBetween {
  from: string;
  to: string;
}

const NO_DAYS: RegisteredBetween = { from: '', to: '' };

/**
 * The filter as the API takes it: empty fields left out, so an empty form means every client. Registration days
 * become instants as on the clients list: from the first day's local midnight to the last day's last millisecond.
 */
export function filterOf(
  keyWord: string,
  statuses: string[],
  roles: string[],
  registered: RegisteredBetween = NO_DAYS,
): ClientFilterRequest {
  const from = toDayStart(registered.from);
  const to = toDayEnd(registered.to);
  return {
    ...(keyWord.trim() ? { keyWord: keyWord.trim() } : {}),
    ...(statuses.length ? { statuses: statuses as ClientFilterRequest['statuses'] } : {}),
    ...(roles.length ? { roles: roles as ClientFilterRequest['roles'] } : {}),
    ...(from || to ? { registrationDate: { ...(from ? { from } : {}), ...(to ? { to } : {}) } } : {}),
  };
}

/** A range whose first day is after its last matches nobody: the form says so instead of counting zero. */
export function isReversed(registered: RegisteredBetween): boolean {
  return registered.from !== '' && registered.to !== '' && registered.from > registered.to;
}

/**
 * Broadcasts (docs/adr/0091-broadcasts.md): the list of those sent with their progress, the compose form (subject and
 * body in both languages, the clients list's filters), a preview that counts the recipients and those who opted out,
 * and a send that names the count before it goes; a row opens its recipients and each one's status.
 */
export function BroadcastList() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [broadcasts, setBroadcasts] = useState<BroadcastSummary[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [composing, setComposing] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setBroadcasts(await dataProvider.listBroadcasts());
      setLoadError(null);
    } catch (error) {
      setLoadError(error instanceof Error ? error.message : String(error));
    }
  }, [dataProvider]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Box sx={{ mt: 2 }} data-testid="broadcasts">
      <Title title={translate('resources.broadcasts.name', { smart_count: 2 })} />
      <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
        <Typography variant="h6" component="h1">
          {translate('resources.broadcasts.name', { smart_count: 2 })}
        </Typography>
        <Button variant="contained" onClick={() => setComposing(true)} data-testid="broadcasts-compose">
          {translate('kupa.broadcasts.compose')}
        </Button>
      </Stack>
      {loadError && <Alert severity="error">{loadError}</Alert>}
      {broadcasts !== null && broadcasts.length === 0 && (
        <EmptyState testId="broadcasts-empty" title={translate('kupa.broadcasts.empty')} />
      )}
      {broadcasts !== null && broadcasts.length > 0 && (
        <Stack spacing={1.5} data-testid="broadcasts-list">
          {broadcasts.map((broadcast) => (
            <BroadcastRow key={broadcast.id} broadcast={broadcast} onOpen={() => setOpenId(broadcast.id)} />
          ))}
        </Stack>
      )}
      {composing && (
        <ComposeDialog
          onClose={() => setComposing(false)}
          onSent={() => {
            setComposing(false);
            void load();
          }}
        />
      )}
      {openId !== null && <BroadcastDetailDialog id={openId} onClose={() => setOpenId(null)} />}
    </Box>
  );
}

function BroadcastRow({ broadcast, onOpen }: { broadcast: BroadcastSummary; onOpen: () => void }) {
  const translate = useTranslate();
  const lang = useLang();
  const handed = broadcast.recipients - broadcast.queued;
  const progress = broadcast.recipients === 0 ? 100 : Math.round((handed / broadcast.recipients) * 100);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid={`broadcast-${broadcast.id}`}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {lang === 'he' ? broadcast.subjectHe : broadcast.subjectEn}
        </Typography>
        <Chip
          size="small"
          color={broadcast.status === 'DONE' ? 'success' : 'info'}
          label={translate(`kupa.broadcasts.status.${broadcast.status}`)}
          data-testid="broadcast-status"
        />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {new Date(broadcast.createdAt).toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB')}
      </Typography>
      {/* A bar while it sends, as on the bulk page; once done the counts say it all, and nothing still moves. */}
      {broadcast.status === 'SENDING' && (
        <LinearProgress variant="determinate" value={progress} sx={{ my: 1 }} aria-label={`${progress}%`} />
      )}
      <Typography variant="body2" data-testid="broadcast-counts">
        {translate('kupa.broadcasts.counts', {
          recipients: broadcast.recipients,
          sent: broadcast.sent,
          skipped: broadcast.skipped,
          failed: broadcast.failed,
          queued: broadcast.queued,
        })}
      </Typography>
      <Stack direction="row" sx={{ mt: 1, gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" onClick={onOpen} data-testid="broadcast-open">
          {translate('kupa.broadcasts.recipients')}
        </Button>
        <ActivityLink id={broadcast.id} testId="broadcast-activity" />
      </Stack>
    </Paper>
  );
}

function ComposeDialog({ onClose, onSent }: { onClose: () => void; onSent: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const statusChoices = useEnumChoices('userStatus', USER_STATUSES);
  const roleChoices = useEnumChoices('userRole', CUSTOMER_ROLES);
  const { run, pending } = useCommand();
  const [content, setContent] = useState(EMPTY_CONTENT);
  const [keyWord, setKeyWord] = useState('');
  const [statuses, setStatuses] = useState<string[]>([]);
  const [roles, setRoles] = useState<string[]>([]);
  const [registered, setRegistered] = useState<RegisteredBetween>(NO_DAYS);
  const reversed = isReversed(registered);
  const [preview, setPreview] = useState<BroadcastPreview | null>(null);
  const [confirming, setConfirming] = useState(false);
  const filter = filterOf(keyWord, statuses, roles, registered);
  const complete = Object.values(content).every((value) => value.trim() !== '');

  const changeFilter = (change: () => void) => {
    change();
    // A count belongs to the filter it was made for.
    setPreview(null);
  };

  const doPreview = () =>
    void run(() => dataProvider.previewBroadcast(filter), {
      successMessage: 'kupa.broadcasts.previewed',
      refresh: false,
    }).then((answer) => answer && setPreview(answer));

  const send = () => {
    const request: CreateBroadcastRequest = { ...content, filter };
    void run(() => dataProvider.sendBroadcast(request), {
      successMessage: 'kupa.broadcasts.sent',
      refresh: false,
    }).then((answer) => (answer ? onSent() : setConfirming(false)));
  };

  const field = (name: keyof typeof EMPTY_CONTENT, multiline: boolean) => (
    <TextField
      label={translate(`kupa.broadcasts.${name}`)}
      value={content[name]}
      onChange={(event) => setContent({ ...content, [name]: event.target.value })}
      multiline={multiline}
      minRows={multiline ? 3 : undefined}
      required
      slotProps={{
        htmlInput: {
          maxLength: multiline ? LIMITS.broadcastBodyMaxLength : LIMITS.broadcastSubjectMaxLength,
          dir: name.endsWith('He') ? 'rtl' : 'ltr',
          'data-testid': `broadcast-${name}`,
        },
      }}
    />
  );

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="broadcast-compose-title">
      <DialogTitle id="broadcast-compose-title">{translate('kupa.broadcasts.compose')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {field('subjectHe', false)}
          {field('bodyHe', true)}
          {field('subjectEn', false)}
          {field('bodyEn', true)}
          <Typography variant="subtitle2" component="h2">
            {translate('kupa.broadcasts.audience')}
          </Typography>
          <TextField
            label={translate('resources.clients.fields.keyWord')}
            value={keyWord}
            onChange={(event) => changeFilter(() => setKeyWord(event.target.value))}
            slotProps={{ htmlInput: { maxLength: LIMITS.keywordMaxLength, 'data-testid': 'broadcast-keyWord' } }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              fullWidth
              label={translate('resources.clients.fields.statuses')}
              value={statuses}
              onChange={(event) => changeFilter(() => setStatuses(event.target.value as unknown as string[]))}
              slotProps={{ select: { multiple: true } }}
            >
              {statusChoices.map((choice) => (
                <MenuItem key={String(choice.id)} value={String(choice.id)}>
                  {String(choice.name)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              fullWidth
              label={translate('resources.clients.fields.roles')}
              value={roles}
              onChange={(event) => changeFilter(() => setRoles(event.target.value as unknown as string[]))}
              slotProps={{ select: { multiple: true } }}
            >
              {roleChoices.map((choice) => (
                <MenuItem key={String(choice.id)} value={String(choice.id)}>
                  {String(choice.name)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            {(['from', 'to'] as const).map((bound) => (
              <TextField
                key={bound}
                type="date"
                fullWidth
                label={translate(
                  `resources.clients.fields.${bound === 'from' ? 'registrationDateFrom' : 'registrationDateTo'}`,
                )}
                value={registered[bound]}
                onChange={(event) => changeFilter(() => setRegistered({ ...registered, [bound]: event.target.value }))}
                error={reversed}
                helperText={reversed && bound === 'to' ? translate('kupa.broadcasts.registeredReversed') : undefined}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { dir: 'ltr', 'data-testid': `broadcast-registered-${bound}` },
                }}
              />
            ))}
          </Stack>
          {preview && (
            <Alert severity="info" data-testid="broadcast-preview">
              {translate('kupa.broadcasts.previewText', {
                recipients: preview.recipients,
                unsubscribed: preview.unsubscribed,
              })}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button onClick={doPreview} disabled={pending || reversed} data-testid="broadcast-preview-button">
          {translate('kupa.broadcasts.preview')}
        </Button>
        <Button
          variant="contained"
          onClick={() => setConfirming(true)}
          disabled={pending || !complete || preview === null || preview.recipients === 0}
          data-testid="broadcast-send"
        >
          {translate('kupa.broadcasts.send')}
        </Button>
      </DialogActions>
      {confirming && preview && (
        <Dialog open onClose={() => setConfirming(false)} aria-labelledby="broadcast-confirm-title">
          <DialogTitle id="broadcast-confirm-title">{translate('kupa.broadcasts.confirmTitle')}</DialogTitle>
          <DialogContent>
            <Typography data-testid="broadcast-confirm-text">
              {translate('kupa.broadcasts.confirmText', {
                count: preview.recipients - preview.unsubscribed,
                unsubscribed: preview.unsubscribed,
              })}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setConfirming(false)}>{translate('ra.action.cancel')}</Button>
            <Button variant="contained" onClick={send} disabled={pending} data-testid="broadcast-confirm">
              {translate('kupa.broadcasts.send')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Dialog>
  );
}

function BroadcastDetailDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [detail, setDetail] = useState<BroadcastDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    dataProvider
      .getBroadcast(id)
      .then(setDetail, (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)));
  }, [dataProvider, id]);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="broadcast-detail-title">
      <DialogTitle id="broadcast-detail-title">{translate('kupa.broadcasts.recipients')}</DialogTitle>
      <DialogContent>
        {error && <Alert severity="error">{error}</Alert>}
        {detail && (
          <TableContainer component={Paper} variant="outlined" data-testid="broadcast-recipients">
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('kupa.broadcasts.recipient')}</TableCell>
                  <TableCell>{translate('kupa.broadcasts.recipientStatus')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {detail.recipientList.map((recipient) => (
                  <TableRow key={recipient.userUuid} data-testid={`recipient-${recipient.userUuid}`}>
                    <TableCell>
                      {recipient.fullName}
                      <Typography variant="body2" color="text.secondary">
                        <Ltr>{recipient.email}</Ltr>
                      </Typography>
                    </TableCell>
                    <TableCell>{translate(`kupa.broadcasts.recipientStatuses.${recipient.status}`)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
