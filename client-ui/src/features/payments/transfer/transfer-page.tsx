import { type FormEvent, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { minorToAmount, randomUuid, type TransferRecipient } from '@kupa/proto';
import { fieldErrorsOf, isApiError } from '../../../lib/api/api-error';
import { paymentsApi } from '../../../lib/api/endpoints';
import { notifyError } from '../../../lib/api/query-client';
import { ME_QUERY_KEY, useMe } from '../../../lib/api/use-me';
import { formatDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast/toast-store';
import { Page } from '../../../lib/ui/page';
import { RouterButton } from '../../../lib/ui/router-link';
import { inputTestId } from '../../../lib/ui/test-ids';
import { isolateText } from '../amount-input';
import { NegativeBalanceNotice } from '../negative-balance-notice';
import { nothingToTransfer } from './transfer-rules';
import { PAYMENTS_QUERY_KEY } from '../payments-query';
import {
  checkTransfer,
  sameTransfer,
  type CheckedTransfer,
  type TransferField,
  type TransferValues,
} from './transfer-form';
import { DollarAmountField } from '../dollar-amount-field';
import { ReadOnlyAction } from '../../../lib/view-as/read-only-action';
import { ONE_TIME_CODE_ERRORS, OneTimeCodeField } from '../../../lib/ui/one-time-code-field';
import { useTwoFactorText } from '../../../lib/ui/two-factor-text';

/** A checked transfer, the idempotency key that names this one submission of it, and whom the server found. */
interface Submission extends CheckedTransfer {
  idempotencyKey: string;
  named: TransferRecipient;
}

/** Rule refusals (4xx) are final: the next attempt is a new submission. Timeouts, rate limits and 5xx may be retried. */
function isFinalRefusal(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

const RECIPIENT_ERRORS = new Set(['error.user.not.found', 'error.transfer.to.self']);

/** A refusal of the look-up the form explains beside the recipient: unknown, oneself, malformed or too many tries. */
function isRecipientRefusal(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

/**
 * Transfers balance to another user by e-mail or profile ID: the form is checked with proto's rules, the server then
 * names the recipient as registered (`POST /payments/transfer/recipient`: their name and a masked e-mail, or an
 * unknown recipient reported beside the field), a dialog names the amount and that person, and only its confirmation
 * sends `POST /payments/transfer`. With two-factor sign-in on, the dialog also asks for a code from the authenticator
 * (step-up, docs/adr/0098-client-two-factor-and-step-up.md); a refused code is said beside it, the dialog stays open.
 */
export function TransferPage() {
  const { t, tIsolated, tRich, lang, issueMessage, apiErrorMessage } = useT();
  const tf = useTwoFactorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const [values, setValues] = useState<TransferValues>({ recipient: '', amount: '' });
  const [errors, setErrors] = useState<Partial<Record<TransferField, string>>>({});
  const [confirming, setConfirming] = useState(false);
  // The submission the user last confirmed; it survives a failed attempt so that retrying the same transfer sends the
  // same key, and the server books it at most once.
  const [submission, setSubmission] = useState<Submission | null>(null);
  const [otpCode, setOtpCode] = useState('');
  const [otpError, setOtpError] = useState<string | undefined>();
  const stepUp = me?.twoFactorEnabled === true;

  const transfer = useMutation({
    mutationFn: ({ recipient, amountMinor, idempotencyKey }: Submission) =>
      paymentsApi.transfer(
        { recipient, amount: minorToAmount(amountMinor), ...(stepUp ? { otpCode: otpCode.trim() } : {}) },
        idempotencyKey,
      ),
    onSuccess: async (_payment, sent) => {
      setSubmission(null);
      setOtpCode('');
      showToast({
        severity: 'success',
        title: t('toast.successTitle'),
        message: t('transfer.done', {
          amount: isolateText(formatDollars(minorToAmount(sent.amountMinor), lang)),
          name: isolateText(sent.named.fullName),
        }),
      });
      // The balance in the app bar and the payments list both changed; the list opens with the new row on top.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY }),
      ]);
      await navigate({ to: '/payments' });
    },
    // A refused code is said beside the code field only; every other refusal also gets the toast.
    meta: { silentError: true },
    onError: (error) => {
      // A refused code is corrected in the dialog; nothing was booked, so the same submission (and key) is sent again.
      if (isApiError(error) && ONE_TIME_CODE_ERRORS.has(error.code) && stepUp) {
        setOtpError(apiErrorMessage(error.body));
        return;
      }
      notifyError(error);
      setConfirming(false);
      if (isFinalRefusal(error)) setSubmission(null);
      const fields: Partial<Record<TransferField, string>> = fieldErrorsOf(error, lang);
      if (isApiError(error) && RECIPIENT_ERRORS.has(error.code)) fields.recipient = apiErrorMessage(error.body);
      if (isApiError(error) && error.code === 'error.insufficient.balance') {
        fields.amount = apiErrorMessage(error.body);
        // The balance shown as the hint was out of date; the server's refusal is a good moment to fetch it again.
        void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      }
      setErrors(fields);
    },
  });

  // The recipient's registered name, asked for before the confirmation; its refusals are explained in place.
  const lookUp = useMutation({
    mutationFn: (recipient: string) => paymentsApi.lookUpRecipient({ recipient }),
    meta: { silentError: true },
    onError: (error) => {
      if (!isRecipientRefusal(error)) {
        notifyError(error);
        return;
      }
      const fields: Partial<Record<TransferField, string>> = fieldErrorsOf(error, lang);
      if (!fields.recipient) fields.recipient = apiErrorMessage(isApiError(error) ? error.body : undefined);
      setErrors(fields);
    },
  });

  const update = (field: TransferField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const proceed = (event: FormEvent) => {
    event.preventDefault();
    const check = checkTransfer(values, me);
    if (!check.ok) {
      setErrors({ recipient: issueMessage(check.issues.recipient), amount: issueMessage(check.issues.amount) });
      return;
    }
    setErrors({});
    lookUp.mutate(check.transfer.recipient, {
      onSuccess: (named) => {
        setSubmission((current) =>
          current && sameTransfer(current, check.transfer)
            ? { ...current, named }
            : { ...check.transfer, idempotencyKey: randomUuid(), named },
        );
        setConfirming(true);
      },
    });
  };

  const nothingToSend = me !== undefined && nothingToTransfer(me.balance);
  const balanceHint = me ? (
    <span data-testid="transfer-balance-hint">
      {tIsolated('transfer.available', { balance: formatDollars(me.balance, lang) })}
    </span>
  ) : undefined;

  return (
    <Page title={t('transfer.title')}>
      <NegativeBalanceNotice />
      <Typography color="text.secondary">{t('transfer.intro')}</Typography>
      {nothingToSend && me && (
        <Alert
          severity="info"
          id="transfer-unavailable-reason"
          data-testid="transfer-unavailable-reason"
          sx={{ maxWidth: 520 }}
          action={
            // Below zero the debt notice above already offers the deposit that settles it.
            me.balance < 0 ? undefined : (
              <RouterButton to="/payments/deposit" color="inherit" size="small" data-testid="transfer-deposit">
                {t('payments.deposit')}
              </RouterButton>
            )
          }
        >
          {tIsolated('transfer.nothingToSend', { balance: formatDollars(me.balance, lang) })}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 520 }}>
        <Stack
          component="form"
          spacing={2.5}
          noValidate
          onSubmit={proceed}
          aria-label={t('transfer.title')}
          data-testid="transfer-form"
        >
          <TextField
            label={t('transfer.recipient')}
            value={values.recipient}
            onChange={(event) => update('recipient', event.target.value)}
            error={Boolean(errors.recipient)}
            helperText={errors.recipient ?? t('transfer.recipientHint')}
            required
            fullWidth
            autoComplete="off"
            slotProps={{ htmlInput: { ...inputTestId('transfer-recipient'), dir: 'ltr', spellCheck: false } }}
          />
          <DollarAmountField
            label={t('transfer.amount')}
            value={values.amount}
            onChange={(text) => update('amount', text)}
            error={errors.amount}
            hint={balanceHint}
            testId="transfer-amount"
          />
          <Stack direction="row" spacing={1.5}>
            <ReadOnlyAction>
              <Button
                type="submit"
                variant="contained"
                disabled={transfer.isPending || lookUp.isPending || nothingToSend}
                aria-describedby={nothingToSend ? 'transfer-unavailable-reason' : undefined}
                data-testid="transfer-continue"
              >
                {lookUp.isPending ? t('transfer.lookingUp') : t('transfer.continue')}
              </Button>
            </ReadOnlyAction>
            <RouterButton to="/payments" variant="text">
              {t('common.cancel')}
            </RouterButton>
          </Stack>
        </Stack>
      </Paper>
      <Dialog
        open={confirming && submission !== null}
        onClose={() => {
          if (!transfer.isPending) setConfirming(false);
        }}
        aria-labelledby="transfer-confirm-title"
        aria-describedby="transfer-confirm-text"
      >
        <DialogTitle id="transfer-confirm-title">{t('transfer.confirm.title')}</DialogTitle>
        <DialogContent>
          {submission && (
            <DialogContentText id="transfer-confirm-text" data-testid="transfer-confirm-text">
              {/* Each token is isolated: the amount keeps the order its language formats it in (as everywhere in
                  the app), the e-mail reads left to right inside Hebrew, and a name keeps its own order in either. */}
              {tRich('transfer.confirm.text', {
                amount: (
                  <bdi data-testid="transfer-confirm-amount">
                    {formatDollars(minorToAmount(submission.amountMinor), lang)}
                  </bdi>
                ),
                name: <bdi data-testid="transfer-confirm-name">{submission.named.fullName}</bdi>,
                email: (
                  <bdi dir="ltr" data-testid="transfer-confirm-email">
                    {submission.named.maskedEmail}
                  </bdi>
                ),
              })}
            </DialogContentText>
          )}
          {stepUp && (
            <Stack spacing={1} sx={{ mt: 2 }}>
              <Typography variant="body2">{tf('stepUpHint')}</Typography>
              <OneTimeCodeField
                value={otpCode}
                onChange={(value) => {
                  setOtpCode(value);
                  setOtpError(undefined);
                }}
                error={otpError}
                testId="transfer-otp"
                autoFocus
              />
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={transfer.isPending} data-testid="transfer-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            variant="contained"
            onClick={() => {
              if (!submission) return;
              if (stepUp && otpCode.trim() === '') {
                setOtpError(tf('stepUpHint'));
                return;
              }
              transfer.mutate(submission);
            }}
            disabled={transfer.isPending}
            data-testid="transfer-confirm"
          >
            {transfer.isPending ? t('form.sending') : t('transfer.confirm.submit')}
          </Button>
        </DialogActions>
      </Dialog>
    </Page>
  );
}
