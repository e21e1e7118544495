import {
  checkExtensionDays,
  checkExtensionReason,
  checkSubscriptionLogin,
  checkSubscriptionPassword,
  formatErrorMessage,
  keptOnOneLine,
  LIMITS,
  resumable,
  type RuleIssue,
} from '@kupa/proto';
import BlockIcon from '@mui/icons-material/Block';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import KeyIcon from '@mui/icons-material/Key';
import PersonIcon from '@mui/icons-material/Person';
import ReplayIcon from '@mui/icons-material/Replay';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import {
  Confirm,
  useDataProvider,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { isolateLtr } from '../shared/ltr';
import { PasswordField } from '../shared/password-field';
import { useCommand } from '../shared/use-command';
import { useLang } from '../shared/use-lang';
import { holdsAccount, isTrial, type SubscriptionRecord } from './subscription-fields';

interface ValueDialogProps {
  open: boolean;
  onClose(): void;
  title: string;
  intro: ReactNode;
  testId: string;
  initialValue: string;
  renderInput(props: {
    value: string;
    onChange(value: string): void;
    error: string | null;
    disabled: boolean;
  }): ReactNode;
  check(value: string): RuleIssue | null;
  submit(value: string): Promise<void>;
  successMessage: string;
}

/**
 * A dialog that sets one value of a subscription at the streaming service. The value is checked with proto's rule
 * first; the server's refusal (a login taken, the streaming service down) stays in the dialog so it can be corrected.
 */
function ValueDialog(props: ValueDialogProps) {
  const { open, onClose, title, intro, testId, initialValue, renderInput, check, submit, successMessage } = props;
  const translate = useTranslate();
  const lang = useLang();
  const notify = useNotify();
  const refresh = useRefresh();
  const titleId = useId();
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const close = () => {
    if (pending) return;
    setValue(initialValue);
    setError(null);
    setServerError(null);
    onClose();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const issue = check(value);
    setError(issue ? formatErrorMessage(issue.error, lang, issue.params) : null);
    setServerError(null);
    if (issue) return;
    setPending(true);
    try {
      await submit(value);
      notify(successMessage, { type: 'success' });
      setPending(false);
      setValue(initialValue);
      onClose();
      refresh();
    } catch (failure) {
      setServerError(failure instanceof Error ? failure.message : String(failure));
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="xs" aria-labelledby={titleId} data-testid={testId}>
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">{intro}</Typography>
            {renderInput({ value, onChange: setValue, error, disabled: pending })}
            {serverError ? (
              <Alert severity="error" data-testid={`${testId}-error`}>
                {serverError}
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={pending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={pending} data-testid={`${testId}-submit`}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Gives the subscription another login at the streaming service; a trial keeps the login it was taken with. */
export function ChangeLoginButton() {
  const record = useRecordContext<SubscriptionRecord>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [open, setOpen] = useState(false);
  if (!record || isTrial(record) || !holdsAccount(record)) return null;
  return (
    <>
      <Button size="small" startIcon={<PersonIcon />} onClick={() => setOpen(true)} data-testid="subscription-login">
        {translate('kupa.subscriptions.change_login')}
      </Button>
      <ValueDialog
        open={open}
        onClose={() => setOpen(false)}
        title={translate('kupa.subscriptions.change_login')}
        intro={translate('kupa.subscriptions.login_intro', { login: isolateLtr(record.login) })}
        testId="subscription-login-dialog"
        initialValue={record.login}
        check={(value) => checkSubscriptionLogin(value.trim())}
        submit={(value) => dataProvider.changeSubscriptionLogin(record.id, value.trim())}
        successMessage="kupa.subscriptions.login_changed"
        renderInput={({ value, onChange, error, disabled }) => (
          <TextField
            autoFocus
            size="small"
            label={translate('kupa.subscriptions.new_login')}
            value={value}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value)}
            error={error !== null}
            helperText={
              error ??
              translate('kupa.subscriptions.login_hint', {
                min: LIMITS.subscriptionLoginMinLength,
                max: LIMITS.subscriptionLoginMaxLength,
              })
            }
            slotProps={{
              htmlInput: {
                dir: 'ltr',
                autoCapitalize: 'none',
                spellCheck: false,
                'data-testid': 'subscription-login-input',
              },
            }}
          />
        )}
      />
    </>
  );
}

/**
 * Sets a new password for the subscription's account at the streaming service. The old one is never shown: the API
 * does not return it, and the field starts empty.
 */
export function ChangePasswordButton() {
  const record = useRecordContext<SubscriptionRecord>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [open, setOpen] = useState(false);
  if (!record || !holdsAccount(record)) return null;
  return (
    <>
      <Button size="small" startIcon={<KeyIcon />} onClick={() => setOpen(true)} data-testid="subscription-password">
        {translate('kupa.subscriptions.change_password')}
      </Button>
      <ValueDialog
        open={open}
        onClose={() => setOpen(false)}
        title={translate('kupa.subscriptions.change_password')}
        intro={translate('kupa.subscriptions.password_intro', { login: isolateLtr(record.login) })}
        testId="subscription-password-dialog"
        initialValue=""
        check={checkSubscriptionPassword}
        submit={(value) => dataProvider.changeSubscriptionPassword(record.id, value)}
        successMessage="kupa.subscriptions.password_changed"
        renderInput={({ value, onChange, error, disabled }) => (
          <PasswordField
            autoFocus
            size="small"
            autoComplete="new-password"
            label={translate('kupa.subscriptions.new_password')}
            value={value}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value)}
            error={error !== null}
            helperText={
              error ?? translate('kupa.subscriptions.password_hint', { min: LIMITS.subscriptionPasswordMinLength })
            }
            slotProps={{ htmlInput: { 'data-testid': 'subscription-password-input' } }}
          />
        )}
      />
    </>
  );
}

/**
 * The end date as a confirmation says it ("12 March 2027"), on one line inside the sentence, or a dash when the
 * subscription has none.
 */
function useEndDateText(record: SubscriptionRecord): string {
  const lang = useLang();
  return record.endDate
    ? keptOnOneLine(
        new Date(record.endDate).toLocaleDateString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'long' }),
      )
    : '—';
}

/**
 * A subscription action taken after a confirmation that names the login and the end date: its button, and the
 * dialog whose texts are the `kupa.subscriptions.<action>_title/_content/_confirm/_keep` keys. Cancelling and
 * resuming differ only in their texts, colours and the call they make.
 */
function ConfirmedSubscriptionAction({
  record,
  action,
  icon,
  color,
  confirmColor,
  testId,
  perform,
  successMessage,
}: {
  record: SubscriptionRecord;
  action: 'cancel' | 'resume';
  icon: ReactNode;
  color?: 'error';
  confirmColor?: 'warning';
  testId: string;
  perform(): Promise<unknown>;
  successMessage: string;
}) {
  const translate = useTranslate();
  const endDate = useEndDateText(record);
  const { run, pending } = useCommand();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        color={color}
        startIcon={icon}
        disabled={pending}
        onClick={() => setOpen(true)}
        data-testid={testId}
      >
        {translate(`kupa.subscriptions.${action}`)}
      </Button>
      <Confirm
        isOpen={open}
        loading={pending}
        title={`kupa.subscriptions.${action}_title`}
        content={`kupa.subscriptions.${action}_content`}
        translateOptions={{ login: isolateLtr(record.login), endDate }}
        confirm={`kupa.subscriptions.${action}_confirm`}
        cancel={`kupa.subscriptions.${action}_keep`}
        confirmColor={confirmColor}
        onConfirm={async () => {
          await run(perform, { successMessage });
          setOpen(false);
        }}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/**
 * Cancels the subscription after a confirmation: it stays active to its end date and is not renewed; until then it
 * can be resumed (`ResumeSubscriptionButton`). Trials cannot be cancelled, and a cancelled one offers no second cancellation.
 */
export function CancelSubscriptionButton() {
  const record = useRecordContext<SubscriptionRecord>();
  const dataProvider = useDataProvider<KupaDataProvider>();
  if (!record || isTrial(record) || record.status !== 'ACTIVE' || record.cancelAtPeriodEnd) return null;
  return (
    <ConfirmedSubscriptionAction
      record={record}
      action="cancel"
      icon={<BlockIcon />}
      color="error"
      confirmColor="warning"
      testId="subscription-cancel"
      perform={() => dataProvider.cancelSubscription(record.id)}
      successMessage="kupa.subscriptions.cancelled"
    />
  );
}

/**
 * Withdraws a cancellation before the end date, after a confirmation (ADR 0076). Shown only while proto's
 * `resumable` says the API would accept it: cancelled, not ended, its end date not reached.
 */
export function ResumeSubscriptionButton() {
  const record = useRecordContext<SubscriptionRecord>();
  const dataProvider = useDataProvider<KupaDataProvider>();
  if (!record || isTrial(record) || !resumable(record, new Date())) return null;
  return (
    <ConfirmedSubscriptionAction
      record={record}
      action="resume"
      icon={<ReplayIcon />}
      testId="subscription-resume"
      perform={() => dataProvider.resumeSubscription(record.id)}
      successMessage="kupa.subscriptions.resumed"
    />
  );
}

/** Whether days may be added (ADR 0089): the period has started and the subscription has not ended. */
export function extendable(subscription: Pick<SubscriptionRecord, 'status'>): boolean {
  return subscription.status === 'ACTIVE' || subscription.status === 'UNSUBSCRIBED' || subscription.status === 'GRACE';
}

/**
 * Adds days to the subscription without a payment, with a reason the client is shown (admins; ADR 0089). Each opening
 * of the dialog is one extension: its `Idempotency-Key` makes a repeated submission add the days once.
 */
export function ExtendSubscriptionButton() {
  const record = useRecordContext<SubscriptionRecord>();
  const { permissions } = usePermissions<string | null>();
  const translate = useTranslate();
  const lang = useLang();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState('');
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [errors, setErrors] = useState<{ days?: string; reason?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!record || permissions !== 'ADMIN' || !extendable(record)) return null;

  const close = () => {
    if (pending) return;
    setOpen(false);
    setDays('');
    setReason('');
    setErrors({});
    setServerError(null);
    setKey(crypto.randomUUID());
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const count = days.trim() === '' ? Number.NaN : Number(days);
    const daysIssue = Number.isNaN(count) ? { error: 'error.validation.required' as const } : checkExtensionDays(count);
    const reasonIssue = checkExtensionReason(reason);
    const next = {
      days: daysIssue ? formatErrorMessage(daysIssue.error, lang, daysIssue.params) : undefined,
      reason: reasonIssue ? formatErrorMessage(reasonIssue.error, lang, reasonIssue.params) : undefined,
    };
    setErrors(next);
    setServerError(null);
    if (next.days || next.reason) return;
    setPending(true);
    try {
      await dataProvider.extendSubscription(record.id, { days: count, reason: reason.trim() }, key);
      notify('kupa.subscriptions.extended', { type: 'success', messageArgs: { smart_count: count } });
      setPending(false);
      close();
      setOpen(false);
      refresh();
    } catch (failure) {
      setServerError(failure instanceof Error ? failure.message : String(failure));
      setPending(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        startIcon={<EventRepeatIcon />}
        onClick={() => setOpen(true)}
        data-testid="subscription-extend"
      >
        {translate('kupa.subscriptions.extend')}
      </Button>
      <Dialog
        open={open}
        onClose={close}
        fullWidth
        maxWidth="xs"
        aria-labelledby={titleId}
        data-testid="subscription-extend-dialog"
      >
        <form noValidate onSubmit={onSubmit}>
          <DialogTitle id={titleId}>{translate('kupa.subscriptions.extend')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Typography variant="body2">
                {translate('kupa.subscriptions.extend_intro', { login: isolateLtr(record.login) })}
              </Typography>
              <TextField
                autoFocus
                size="small"
                type="number"
                label={translate('kupa.subscriptions.extend_days')}
                value={days}
                disabled={pending}
                onChange={(event) => setDays(event.target.value)}
                error={errors.days !== undefined}
                helperText={
                  errors.days ?? translate('kupa.subscriptions.extend_days_hint', { max: LIMITS.extensionMaxDays })
                }
                slotProps={{
                  htmlInput: {
                    min: 1,
                    max: LIMITS.extensionMaxDays,
                    step: 1,
                    'data-testid': 'subscription-extend-days',
                  },
                }}
              />
              <TextField
                size="small"
                multiline
                minRows={2}
                label={translate('kupa.subscriptions.extend_reason')}
                value={reason}
                disabled={pending}
                onChange={(event) => setReason(event.target.value)}
                error={errors.reason !== undefined}
                helperText={errors.reason ?? translate('kupa.subscriptions.extend_reason_hint')}
                slotProps={{
                  htmlInput: {
                    maxLength: LIMITS.extensionReasonMaxLength,
                    'data-testid': 'subscription-extend-reason',
                  },
                }}
              />
              {serverError ? (
                <Alert severity="error" data-testid="subscription-extend-dialog-error">
                  {serverError}
                </Alert>
              ) : null}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={pending}>
              {translate('ra.action.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={pending} data-testid="subscription-extend-submit">
              {translate('kupa.subscriptions.extend_confirm')}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
