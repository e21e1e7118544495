import { type FormEvent, useState } from 'react';
import type { VoucherRedemption } from '@kupa/proto';
import { useMutation, useQueryClient } from '@tanstack/react-query';
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
import { SUBSCRIPTIONS_QUERY_KEY } from '../../subscriptions/subscriptions-query';
import { PAYMENTS_QUERY_KEY } from '../payments-query';
import { ReadOnlyAction } from '../../../lib/view-as/read-only-action';

/**
 * A voucher code's box (docs/adr/0089-prepaid-vouchers.md): the code as typed goes to `POST /vouchers/redeem`, whose
 * refusals (a wrong code, one already used, too many tries, a day voucher without a subscription of its package) are
 * explained under the field; a success names the amount (or the days, the package and the new end) and refreshes the
 * balance, the payments list, where a money voucher shows as a deposit, and the subscriptions.
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

  const redeem = useMutation({
    mutationFn: (typed: string) => paymentsApi.redeemVoucher(typed),
    meta: { silentError: true },
    onSuccess: async (redemption) => {
      setCode('');
      setError(undefined);
      showToast({
        severity: 'success',
        title: t('toast.successTitle'),
        message:
          redemption.kind === 'DAYS'
            ? t('payments.redeem.doneDays', {
                days: String(redemption.days ?? 0),
                plan: isolateText(redemption.planName ?? ''),
                endDate: isolateText(redemption.endDate ? formatDate(redemption.endDate, lang) : ''),
              })
            : t('payments.redeem.done', { amount: isolateText(formatDollars(redemption.amount, lang)) }),
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY }),
      ]);
      onRedeemed?.(redemption);
    },
    onError: (failure) => {
      // A refusal (4xx) is the client's to read beside the code; anything else is the app-wide error toast.
      if (isApiError(failure) && failure.status >= 400 && failure.status < 500) {
        setError(apiErrorMessage(failure.body));
        return;
      }
      notifyError(failure);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      setError(t('payments.redeem.required'));
      return;
    }
    redeem.mutate(code.trim());
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
            }}
            error={error !== undefined}
            helperText={error ?? t('payments.redeem.hint')}
            autoComplete="off"
            // Codes are Latin letters and digits whatever the page's direction.
            slotProps={{ htmlInput: { ...inputTestId('redeem-code'), dir: 'ltr', spellCheck: false, maxLength: 64 } }}
            sx={{ flexGrow: 1, maxWidth: { sm: 360 } }}
          />
          <ReadOnlyAction>
            <Button
              type="submit"
              variant="outlined"
              loading={redeem.isPending}
              data-testid="redeem-submit"
              sx={{ mt: { sm: 1 } }}
            >
              {t('payments.redeem.submit')}
            </Button>
          </ReadOnlyAction>
        </Stack>
      </Stack>
    </Paper>
  );
}
