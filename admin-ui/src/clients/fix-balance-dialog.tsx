import {
  AMOUNT_MAX,
  BALANCE_FIX_ACTIONS,
  type BalanceFixAction,
  checkPublicNote,
  checkRequired,
  checkTextLength,
  firstIssue,
  formatErrorMessage,
  LIMITS,
  type ManualPaymentRequest,
  minorToAmount,
  parseTypedAmountToMinor,
  randomUuid,
  type RuleIssue,
} from '@kupa/proto';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useRef, useState } from 'react';
import { useDataProvider, useNotify, useRefresh, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { ApiError } from '../providers/http-client';
import { useEnumChoices } from '../shared/enum-choices';
import { isolateLtr } from '../shared/ltr';
import { formatAmount, Money } from '../shared/money';
import { NativeSelect } from '../shared/native-select';
import { useLang } from '../shared/use-lang';

const DECIMAL = /^[-+]?\d+(\.\d+)?$/;

/**
 * Reads the typed amount with proto's money rule (positive, at most two decimals, at most 99 999.99), so the
 * dialog refuses exactly what the API would refuse. The amount sent is the one proto read back from cents.
 */
export function checkAmount(text: string): { issue: RuleIssue } | { amount: number } {
  const trimmed = text.trim();
  const required = checkRequired(trimmed);
  if (required) return { issue: required };
  if (!DECIMAL.test(trimmed)) return { issue: { error: 'error.validation.invalid.input' } };
  const check = parseTypedAmountToMinor(trimmed);
  if (check.ok) return { amount: minorToAmount(check.amountMinor) };
  return { issue: { error: check.error, params: { max: AMOUNT_MAX, maxDecimalPlaces: LIMITS.amountDecimalPlaces } } };
}

interface FixBalanceDialogProps {
  open: boolean;
  onClose(): void;
  userUuid: string;
  balance: number | null | undefined;
}

/** A submission that got no definitive answer, remembered so that retrying it reuses its idempotency key. */
interface UnsettledAttempt {
  body: string;
  key: string;
}

/**
 * The staff balance fix (`POST /payments`, docs/api.md, Ledger): a deposit or a withdrawal, either real money received
 * or paid out by transfer, or a correction booked against the adjustment account (which earns no ambassador bonus).
 * Each submission carries an `Idempotency-Key`. When a submission gets no definitive answer (the network failed, or the
 * server failed), the same submission sent again reuses its key, so the server books the money at most once even if the
 * first attempt did land; any change to the form, or a definitive answer, starts a new key.
 */
export function FixBalanceDialog({ open, onClose, userUuid, balance }: FixBalanceDialogProps) {
  const translate = useTranslate();
  const lang = useLang();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const actionChoices = useEnumChoices('balanceFixAction', BALANCE_FIX_ACTIONS);
  const [action, setAction] = useState<BalanceFixAction>('DEPOSIT');
  const [correction, setCorrection] = useState(false);
  const [amount, setAmount] = useState('');
  const [comment, setComment] = useState('');
  const [publicNote, setPublicNote] = useState('');
  const [publicNoteError, setPublicNoteError] = useState<string | null>(null);
  const [amountError, setAmountError] = useState<string | null>(null);
  const [commentError, setCommentError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  // Kept outside the form's state on purpose: it must survive closing and reopening the dialog.
  const unsettled = useRef<UnsettledAttempt | null>(null);

  const message = (issue: RuleIssue | null) => (issue ? formatErrorMessage(issue.error, lang, issue.params) : null);

  const reset = () => {
    setAction('DEPOSIT');
    setCorrection(false);
    setAmount('');
    setComment('');
    setPublicNote('');
    setAmountError(null);
    setCommentError(null);
    setPublicNoteError(null);
    setServerError(null);
  };

  const close = () => {
    if (pending) return;
    reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checkedAmount = checkAmount(amount);
    const commentIssue = firstIssue(comment.trim(), checkRequired, checkTextLength);
    const note = publicNote.trim();
    // The note for the client is optional: empty is none, and one over the limit is refused, never cut.
    const publicNoteIssue = note === '' ? null : checkPublicNote(note);
    setAmountError('issue' in checkedAmount ? message(checkedAmount.issue) : null);
    setCommentError(message(commentIssue));
    setPublicNoteError(message(publicNoteIssue));
    setServerError(null);
    if ('issue' in checkedAmount || commentIssue || publicNoteIssue) return;

    const request: ManualPaymentRequest = {
      userUuid,
      amount: checkedAmount.amount,
      action,
      comment: comment.trim(),
      correction,
      ...(note ? { publicNote: note } : {}),
    };
    const body = JSON.stringify(request);
    if (unsettled.current?.body !== body) unsettled.current = { body, key: randomUuid() };
    const attempt = unsettled.current;

    setPending(true);
    try {
      await dataProvider.createManualPayment(request, attempt.key);
      unsettled.current = null;
      notify('kupa.fix_balance.done', { type: 'success' });
      reset();
      onClose();
      refresh();
    } catch (error) {
      // A 4xx is the server's final word on this submission; only an unanswered or failed one may be retried as is.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) unsettled.current = null;
      setServerError(error instanceof Error ? error.message : String(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth="sm"
      aria-labelledby="fix-balance-title"
      data-testid="fix-balance-dialog"
    >
      <form noValidate onSubmit={submit}>
        <DialogTitle id="fix-balance-title">{translate('kupa.fix_balance.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">
              {translate('kupa.fix_balance.current_balance')} <Money amount={balance} />
            </Typography>
            <NativeSelect<BalanceFixAction>
              label={translate('kupa.fix_balance.action')}
              value={action}
              choices={actionChoices}
              onChange={setAction}
              testId="fix-balance-action"
            />
            <div>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={correction}
                    onChange={(event) => setCorrection(event.target.checked)}
                    slotProps={{ input: { 'data-testid': 'fix-balance-correction' } as object }}
                  />
                }
                label={translate('kupa.fix_balance.correction')}
              />
              <FormHelperText>{translate('kupa.fix_balance.correction_hint')}</FormHelperText>
            </div>
            <TextField
              size="small"
              label={translate('kupa.fix_balance.amount')}
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              error={amountError !== null}
              helperText={
                amountError ??
                translate('kupa.fix_balance.amount_hint', { max: isolateLtr(formatAmount(AMOUNT_MAX, lang)) })
              }
              slotProps={{ htmlInput: { inputMode: 'decimal', dir: 'ltr', 'data-testid': 'fix-balance-amount' } }}
            />
            <TextField
              multiline
              minRows={2}
              label={translate('kupa.fix_balance.comment')}
              value={comment}
              onChange={(event) => setComment(event.target.value)}
              error={commentError !== null}
              helperText={commentError ?? translate('kupa.fix_balance.comment_hint')}
              slotProps={{ htmlInput: { dir: 'auto', 'data-testid': 'fix-balance-comment' } }}
            />
            <TextField
              multiline
              minRows={2}
              label={translate('kupa.payments.public_note.label')}
              value={publicNote}
              onChange={(event) => setPublicNote(event.target.value)}
              error={publicNoteError !== null}
              helperText={
                publicNoteError ?? translate('kupa.payments.public_note.hint', { max: LIMITS.publicNoteMaxLength })
              }
              slotProps={{ htmlInput: { dir: 'auto', 'data-testid': 'fix-balance-public-note' } }}
            />
            {serverError ? (
              <Alert severity="error" data-testid="fix-balance-error">
                {serverError}
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={pending} data-testid="fix-balance-cancel">
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={pending} data-testid="fix-balance-submit">
            {translate('kupa.fix_balance.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
