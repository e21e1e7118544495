import { type FormEvent, useState } from 'react';
import type { VoucherPreview, VoucherRedemption } from '@kupa/proto';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { isApiError } from '../../../lib/api/api-error';
import { paymentsApi } from '../../../lib/api/endpoints';
import { notifyError } from '../../../lib/api/query-client';
import { ME_QUERY_KEY } from '../../../lib/api/use-me';
import { formatDate, formatDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast/toast-store';
import { inputTestId } from '../../../lib/ui/test-ids';
import { isolateText } from '../amount-input';
import { CredentialsDialog } from '../../subscriptions/credentials-dialog';
import type { CredentialsValues } from '../../subscriptions/credentials-form';
import { SUBSCRIPTIONS_QUERY_KEY } from '../../subscriptions/subscriptions-query';
import { PAYMENTS_QUERY_KEY } from '../payments-query';
import { ReadOnlyAction } from '../../../lib/view-as/read-only-action';

interface Redemption {
  code: string;
  credentials?: { login: string; password: string };
}

/**
 * A voucher code's box (docs/adr/0089-prepaid-vouchers.md), in two steps so that nobody spends a code blind: the code
 * as typed goes first to `POST /vouchers/preview`, whose answer says what it gives ("$20 to your balance", "30 days
 * of ⟨package⟩, until ⟨date⟩", or a new subscription); a confirm button then redeems it (`POST /vouchers/redeem`),
 * for a new subscription with the login and password asked in the purchase's dialog. Refusals (a wrong code, one
 * already used, too many tries) are explained under the field; a success refreshes the balance, the payments list,
 * where a money voucher shows as a deposit, and the subscriptions.
 */
export function RedeemVoucherBox({
  initialCode = '',
  onRedeemed,
  titled = true,
}: {
  initialCode?: string;
  onRedeemed?: (redemption: VoucherRedemption) => void;
  /** The box's own heading; off where the page's title already says it (`/redeem/{code}`). */
  titled?: boolean;
}) {
  const { t, lang, apiErrorMessage } = useT();
  const queryClient = useQueryClient();
  const [code, setCode] = useState(initialCode);
  const [error, setError] = useState<string | undefined>();
  const [preview, setPreview] = useState<{ code: string; gives: VoucherPreview } | null>(null);
  const [askingCredentials, setAskingCredentials] = useState(false);
  const [credentialsError, setCredentialsError] = useState<string | undefined>();

  /** A refusal (4xx) is the client's to read beside the code; anything else is the app-wide error toast. */
  const explain = (failure: unknown, show: (message: string) => void) => {
    if (isApiError(failure) && failure.status >= 400 && failure.status < 500) {
      show(apiErrorMessage(failure.body));
      return;
    }
    notifyError(failure);
  };

  const check = useMutation({
    mutationFn: (typed: string) => paymentsApi.previewVoucher(typed),
    meta: { silentError: true },
    onSuccess: (gives, typed) => {
      setError(undefined);
      setPreview({ code: typed, gives });
    },
    onError: (failure) => explain(failure, setError),
  });

  const redeem = useMutation({
    mutationFn: ({ code: typed, credentials }: Redemption) => paymentsApi.redeemVoucher(typed, credentials),
    meta: { silentError: true },
    onSuccess: async (redemption) => {
      setCode('');
      setError(undefined);
      setPreview(null);
      setAskingCredentials(false);
      showToast({ severity: 'success', title: t('toast.successTitle'), message: doneMessage(redemption) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY }),
      ]);
      onRedeemed?.(redemption);
    },
    onError: (failure, { credentials }) => {
      // A login already taken belongs to the dialog that asked for it; other refusals end the preview.
      if (credentials) {
        explain(failure, setCredentialsError);
        return;
      }
      setPreview(null);
      explain(failure, setError);
    },
  });

  const doneMessage = (redemption: VoucherRedemption): string => {
    const plan = isolateText(redemption.planName ?? '');
    const days = String(redemption.days ?? 0);
    if (redemption.kind !== 'DAYS')
      return t('payments.redeem.done', { amount: isolateText(formatDollars(redemption.amount, lang)) });
    if (redemption.newSubscription) return t('payments.redeem.doneNew', { days, plan });
    return t('payments.redeem.doneDays', {
      days,
      plan,
      endDate: isolateText(redemption.endDate ? formatDate(redemption.endDate, lang) : ''),
    });
  };

  const previewText = (gives: VoucherPreview): string => {
    if (gives.kind !== 'DAYS')
      return t('payments.redeem.previewMoney', { amount: isolateText(formatDollars(gives.amount, lang)) });
    const plan = isolateText(gives.planName ?? '');
    const days = String(gives.days ?? 0);
    if (gives.newSubscription) return t('payments.redeem.previewNew', { days, plan });
    return t('payments.redeem.previewDays', {
      days,
      plan,
      endDate: isolateText(gives.endDate ? formatDate(gives.endDate, lang) : ''),
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      setError(t('payments.redeem.required'));
      return;
    }
    check.mutate(code.trim());
  };

  const confirm = () => {
    if (!preview) return;
    if (preview.gives.newSubscription) {
      setCredentialsError(undefined);
      setAskingCredentials(true);
      return;
    }
    redeem.mutate({ code: preview.code });
  };

  const redeemWith = (values: CredentialsValues) => {
    if (!preview) return;
    redeem.mutate({ code: preview.code, credentials: { login: values.login, password: values.password } });
  };

  return (
    <Paper
      variant="outlined"
      sx={{ p: 2 }}
      component="section"
      aria-labelledby={titled ? 'redeem-voucher-title' : undefined}
      aria-label={titled ? undefined : t('payments.redeem.title')}
    >
      <Stack component="form" spacing={1.5} noValidate onSubmit={submit}>
        {titled && (
          <Typography id="redeem-voucher-title" variant="subtitle1" component="h2">
            {t('payments.redeem.title')}
          </Typography>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label={t('payments.redeem.code')}
            value={code}
            onChange={(event) => {
              setCode(event.target.value);
              setError(undefined);
              // What was previewed is the code as it was: another code is checked again.
              setPreview(null);
            }}
            error={error !== undefined}
            helperText={error ?? t('payments.redeem.hint')}
            autoComplete="off"
            // Codes are Latin letters and digits whatever the page's direction.
            slotProps={{ htmlInput: { ...inputTestId('redeem-code'), dir: 'ltr', spellCheck: false, maxLength: 64 } }}
            sx={{ flexGrow: 1, maxWidth: { sm: 360 } }}
          />
          {preview === null && (
            <ReadOnlyAction>
              <Button
                type="submit"
                variant="outlined"
                loading={check.isPending}
                data-testid="redeem-submit"
                sx={{ mt: { sm: 1 } }}
              >
                {t('payments.redeem.check')}
              </Button>
            </ReadOnlyAction>
          )}
        </Stack>
        {preview !== null && (
          // The buttons sit under the sentence, not beside it: on a phone a side column squeezed it to a few words.
          <Stack spacing={1}>
            <Alert severity="info" data-testid="redeem-preview">
              {previewText(preview.gives)}
            </Alert>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={() => setPreview(null)} disabled={redeem.isPending} data-testid="redeem-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                variant="contained"
                onClick={confirm}
                loading={redeem.isPending && !askingCredentials}
                data-testid="redeem-confirm"
              >
                {preview.gives.newSubscription ? t('payments.redeem.confirmNew') : t('payments.redeem.confirm')}
              </Button>
            </Stack>
          </Stack>
        )}
      </Stack>
      <CredentialsDialog
        open={askingCredentials}
        title={t('payments.redeem.newTitle', { plan: isolateText(preview?.gives.planName ?? '') })}
        fields="both"
        submitLabel={t('payments.redeem.confirm')}
        pending={redeem.isPending}
        testId="redeem-credentials"
        footer={credentialsError && <Alert severity="error">{credentialsError}</Alert>}
        onEdit={() => setCredentialsError(undefined)}
        onSubmit={redeemWith}
        onClose={() => setAskingCredentials(false)}
      >
        {preview && <Typography>{previewText(preview.gives)}</Typography>}
      </CredentialsDialog>
    </Paper>
  );
}
