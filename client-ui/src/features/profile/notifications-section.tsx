import { type FormEvent, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CLIENT_NOTIFICATION_PREFERENCE_KINDS,
  type ErrorCode,
  formatClientErrorMessage,
  type Language,
  LOCAL_TIME_PATTERN,
  minorToAmount,
  capitalized,
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KIND_RULES,
  NOTIFICATION_PREFERENCE_KIND_LABELS,
  NOTIFICATION_PREFERENCE_LIMITS,
  type NotificationChannel,
  type NotificationPreferenceKind,
  type NotificationPreferences,
} from '@kupa/proto';
import { errorMessageFor, isApiError } from '../../lib/api/api-error';
import { usePartT } from '../../lib/i18n/dictionary-part';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { inputTestId } from '../../lib/ui/test-ids';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';
import { parseAmountInput } from '../payments/amount-input';
import {
  NOTIFICATION_PREFERENCES_QUERY_KEY,
  type NotificationPreferencesChange,
  notificationSettingsApi,
} from './notification-settings-api';
import { kindHintKey, NOTIFICATION_SETTINGS_MESSAGES } from './notification-settings-text';
import { useTelegramLink } from './telegram-card';

/** The form's values: the channels as chosen, the numbers and times as typed. */
interface Draft {
  channels: Record<NotificationPreferenceKind, NotificationChannel[]>;
  leadDays: string;
  /** Dollars, as typed; the API takes cents. */
  threshold: string;
  quiet: boolean;
  from: string;
  to: string;
  timeZone: string;
}

type Field = 'leadDays' | 'threshold' | 'quietHours' | 'timeZone';

/** The catalogue's refusals that belong to one field; the others are said above the Save button. */
const FIELD_OF_ERROR: Partial<Record<string, Field>> = {
  'error.notification.preferences.lead.days.range': 'leadDays',
  'error.notification.preferences.threshold.range': 'threshold',
  'error.notification.preferences.quiet.hours.invalid': 'quietHours',
  'error.notification.preferences.time.zone.invalid': 'timeZone',
};

/** The browser's own time zone, which quiet hours start in until the person picks another. */
function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every zone the browser knows, for the quiet hours' picker; the saved one stays a choice even if it does not. */
function timeZoneChoices(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

function draftOf(saved: NotificationPreferences): Draft {
  return {
    // A kind the server does not name yet (an older server during a deploy) shows its defaults. A staff-only kind is
    // neither shown nor sent back (ADR 0106).
    channels: Object.fromEntries(
      CLIENT_NOTIFICATION_PREFERENCE_KINDS.map((kind) => [
        kind,
        saved.channels[kind] ?? [...NOTIFICATION_KIND_RULES[kind].defaults],
      ]),
    ) as Draft['channels'],
    leadDays: saved.leadDays == null ? '' : String(saved.leadDays),
    threshold: saved.lowBalanceThresholdMinor == null ? '' : minorToAmount(saved.lowBalanceThresholdMinor).toFixed(2),
    quiet: Boolean(saved.quietHours),
    from: saved.quietHours?.from ?? '22:00',
    to: saved.quietHours?.to ?? '07:00',
    timeZone: saved.quietHours?.timeZone ?? browserTimeZone(),
  };
}

function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone !== '';
  } catch {
    return false;
  }
}

/**
 * The request a draft makes, or the message of each field that is wrong, with proto's catalogue texts (the API
 * checks the same rules and answers the same codes).
 */
export function preferencesRequest(
  draft: Draft,
  lang: Language,
): { ok: true; request: NotificationPreferencesChange } | { ok: false; errors: Partial<Record<Field, string>> } {
  const errors: Partial<Record<Field, string>> = {};
  const say = (code: ErrorCode, params?: Record<string, string | number>) =>
    formatClientErrorMessage(code, lang, params);
  const { leadDaysMin, leadDaysMax, lowBalanceThresholdMaxMinor } = NOTIFICATION_PREFERENCE_LIMITS;

  let leadDays: number | null = null;
  const leadText = draft.leadDays.trim();
  if (leadText !== '') {
    leadDays = /^\d+$/.test(leadText) ? Number(leadText) : NaN;
    if (!(leadDays >= leadDaysMin && leadDays <= leadDaysMax))
      errors.leadDays = say('error.notification.preferences.lead.days.range');
  }

  let lowBalanceThresholdMinor: number | null = null;
  if (draft.threshold.trim() !== '') {
    const amount = parseAmountInput(draft.threshold);
    if (!amount.ok && amount.issue.error !== 'error.validation.max')
      errors.threshold = say(amount.issue.error, amount.issue.params);
    else if (!amount.ok || amount.amountMinor > lowBalanceThresholdMaxMinor)
      errors.threshold = say('error.notification.preferences.threshold.range');
    else lowBalanceThresholdMinor = amount.amountMinor;
  }

  if (draft.quiet) {
    if (!LOCAL_TIME_PATTERN.test(draft.from) || !LOCAL_TIME_PATTERN.test(draft.to) || draft.from === draft.to)
      errors.quietHours = say('error.notification.preferences.quiet.hours.invalid');
    if (!isTimeZone(draft.timeZone)) errors.timeZone = say('error.notification.preferences.time.zone.invalid');
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      channels: draft.channels,
      leadDays,
      lowBalanceThresholdMinor,
      ...(draft.quiet ? { quietHours: { from: draft.from, to: draft.to, timeZone: draft.timeZone } } : {}),
    },
  };
}

/**
 * The profile's Notifications section (docs/adr/0102-notification-preferences.md): for each kind, a checkbox per
 * channel it is offered on; the first reminder's lead days; the low-balance threshold in dollars; quiet hours for
 * Telegram. Save replaces the whole setting. It absorbs the former announcements switch: announcements are one of the
 * kinds. Telegram's boxes keep their choice but stay disabled until a chat is linked, since nothing goes there before.
 */
export function NotificationsSection() {
  const { data } = useQuery({
    queryKey: NOTIFICATION_PREFERENCES_QUERY_KEY,
    queryFn: notificationSettingsApi.preferences,
  });
  // Not loaded yet, or an answer of another shape: the rest of the profile stands without the section.
  if (typeof data?.channels !== 'object' || data.channels === null) return null;
  return <NotificationsForm saved={data} />;
}

function NotificationsForm({ saved }: { saved: NotificationPreferences }) {
  const { t, lang } = usePartT(NOTIFICATION_SETTINGS_MESSAGES);
  const { t: appT } = useT();
  const queryClient = useQueryClient();
  const telegram = useTelegramLink().data;
  const telegramUsable = telegram?.linked === true;
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const zones = useMemo(() => timeZoneChoices(draft.timeZone), [draft.timeZone]);

  const save = useMutation({
    mutationFn: notificationSettingsApi.replacePreferences,
    // Said in place: a refusal names what to change, next to the Save button or on its field.
    meta: { silentError: true },
    onSuccess: (answer) => {
      queryClient.setQueryData(NOTIFICATION_PREFERENCES_QUERY_KEY, answer);
      setDraft(draftOf(answer));
      showToast({ severity: 'success', title: appT('toast.successTitle'), message: t('saved') });
    },
    onError: (error) => {
      const field = isApiError(error) ? FIELD_OF_ERROR[error.code] : undefined;
      const message = errorMessageFor(error, lang);
      if (field) setErrors({ [field]: message });
      else setRefusal(message);
    },
  });

  const update = (change: Partial<Draft>, field?: Field) => {
    setDraft((current) => ({ ...current, ...change }));
    setRefusal(null);
    if (field) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const toggle = (kind: NotificationPreferenceKind, channel: NotificationChannel, on: boolean) => {
    const chosen = new Set(draft.channels[kind]);
    if (on) chosen.add(channel);
    else chosen.delete(channel);
    update({
      channels: { ...draft.channels, [kind]: NOTIFICATION_CHANNELS.filter((each) => chosen.has(each)) },
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const checked = preferencesRequest(draft, lang);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(checked.request);
  };

  const channelName = (channel: NotificationChannel) => capitalized(NOTIFICATION_CHANNEL_LABELS[channel][lang], lang);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="notifications-title"
      sx={{ p: 3 }}
      data-testid="notification-settings"
    >
      <Typography id="notifications-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('intro')}
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-labelledby="notifications-title">
        <Table size="small" sx={{ mb: 1, tableLayout: 'fixed' }} data-testid="notification-channels">
          <TableHead>
            <TableRow>
              <TableCell sx={{ px: 1, paddingInlineStart: 0 }}>{t('kind')}</TableCell>
              {NOTIFICATION_CHANNELS.map((channel) => (
                <TableCell
                  key={channel}
                  align="center"
                  // Narrow on a phone, so that the kinds' names and hints keep most of the row.
                  sx={{
                    px: 0.25,
                    width: { xs: '3.5rem', sm: '6.5rem' },
                    fontSize: { xs: '0.75rem', sm: '0.875rem' },
                    overflowWrap: 'anywhere',
                  }}
                >
                  {channelName(channel)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {CLIENT_NOTIFICATION_PREFERENCE_KINDS.map((kind) => {
              const kindName = capitalized(NOTIFICATION_PREFERENCE_KIND_LABELS[kind][lang], lang);
              return (
                <TableRow key={kind} data-testid={`notification-kind-${kind}`}>
                  <TableCell component="th" scope="row" sx={{ px: 1, paddingInlineStart: 0 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {kindName}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" component="p">
                      {t(kindHintKey(kind))}
                    </Typography>
                  </TableCell>
                  {NOTIFICATION_CHANNELS.map((channel) => (
                    <TableCell key={channel} align="center" sx={{ px: 0.25 }}>
                      {NOTIFICATION_KIND_RULES[kind].offered.includes(channel) ? (
                        <Checkbox
                          checked={draft.channels[kind].includes(channel)}
                          disabled={channel === 'telegram' && !telegramUsable}
                          onChange={(event) => toggle(kind, channel, event.target.checked)}
                          slotProps={{
                            input: {
                              'aria-label': t('channelOf', { kind: kindName, channel: channelName(channel) }),
                              ...(channel === 'telegram' && !telegramUsable
                                ? { 'aria-describedby': 'notification-telegram-hint' }
                                : {}),
                              ...inputTestId(`notification-${kind}-${channel}`),
                            },
                          }}
                        />
                      ) : null}
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {telegramUsable ? null : (
          <Typography
            id="notification-telegram-hint"
            variant="body2"
            color="text.secondary"
            sx={{ mb: 2 }}
            data-testid="notification-telegram-hint"
          >
            {telegram?.configured === false ? t('telegramOff') : t('telegramNotLinked')}
          </Typography>
        )}
        <Stack spacing={2} sx={{ maxWidth: 480, mt: 2 }}>
          <TextField
            label={t('leadDays')}
            value={draft.leadDays}
            onChange={(event) => update({ leadDays: event.target.value }, 'leadDays')}
            error={Boolean(errors.leadDays)}
            helperText={errors.leadDays ?? t('leadDaysHint')}
            slotProps={{ htmlInput: { ...inputTestId('notification-lead-days'), dir: 'ltr', inputMode: 'numeric' } }}
          />
          <TextField
            label={t('threshold')}
            value={draft.threshold}
            onChange={(event) => update({ threshold: event.target.value }, 'threshold')}
            error={Boolean(errors.threshold)}
            helperText={errors.threshold ?? t('thresholdHint')}
            slotProps={{
              htmlInput: { ...inputTestId('notification-threshold'), dir: 'ltr', inputMode: 'decimal' },
              input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
            }}
          />
          <Box>
            <FormControlLabel
              control={
                <Switch
                  checked={draft.quiet}
                  onChange={(event) => update({ quiet: event.target.checked }, 'quietHours')}
                  slotProps={{ input: { 'aria-describedby': 'notification-quiet-hint' } }}
                  data-testid="notification-quiet"
                />
              }
              label={t('quietHours')}
            />
            <Typography id="notification-quiet-hint" variant="body2" color="text.secondary">
              {t('quietHoursHint')}
            </Typography>
          </Box>
          {draft.quiet ? (
            <>
              <Stack direction="row" spacing={2}>
                <TextField
                  type="time"
                  label={t('quietFrom')}
                  value={draft.from}
                  onChange={(event) => update({ from: event.target.value }, 'quietHours')}
                  error={Boolean(errors.quietHours)}
                  sx={{ flex: 1 }}
                  slotProps={{
                    inputLabel: { shrink: true },
                    htmlInput: { ...inputTestId('notification-quiet-from'), dir: 'ltr' },
                  }}
                />
                <TextField
                  type="time"
                  label={t('quietTo')}
                  value={draft.to}
                  onChange={(event) => update({ to: event.target.value }, 'quietHours')}
                  error={Boolean(errors.quietHours)}
                  sx={{ flex: 1 }}
                  slotProps={{
                    inputLabel: { shrink: true },
                    htmlInput: { ...inputTestId('notification-quiet-to'), dir: 'ltr' },
                  }}
                />
              </Stack>
              {errors.quietHours ? (
                <Typography variant="body2" color="error" role="alert" data-testid="notification-quiet-error">
                  {errors.quietHours}
                </Typography>
              ) : null}
              <TextField
                select
                label={t('timeZone')}
                value={draft.timeZone}
                onChange={(event) => update({ timeZone: event.target.value }, 'timeZone')}
                error={Boolean(errors.timeZone)}
                helperText={errors.timeZone}
                slotProps={{
                  select: { native: true },
                  inputLabel: { shrink: true },
                  htmlInput: { ...inputTestId('notification-time-zone'), dir: 'ltr' },
                }}
              >
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </TextField>
            </>
          ) : null}
          {refusal ? (
            <Alert severity="error" role="alert" data-testid="notification-settings-error">
              {refusal}
            </Alert>
          ) : null}
          <Box>
            <ReadOnlyAction>
              <Button
                type="submit"
                variant="contained"
                disabled={save.isPending}
                data-testid="notification-settings-save"
              >
                {save.isPending ? t('saving') : t('save')}
              </Button>
            </ReadOnlyAction>
          </Box>
        </Stack>
      </Box>
    </Paper>
  );
}
