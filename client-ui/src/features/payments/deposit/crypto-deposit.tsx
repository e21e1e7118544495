import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import {
  CASHIER_DEFAULTS,
  CASHIER_PROVIDER_STATUS_LABELS,
  type CryptoMethod,
  enumLabel,
  messageForApiError,
  minorToAmount,
  type Payment,
} from '@kupa/proto';
import { fieldErrorsOf, isApiError } from '../../../lib/api/api-error';
import { paymentsApi } from '../../../lib/api/endpoints';
import { notifyError } from '../../../lib/api/query-client';
import { ME_QUERY_KEY } from '../../../lib/api/use-me';
import { formatDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { showToast } from '../../../lib/toast/toast-store';
import { inputTestId } from '../../../lib/ui/test-ids';
import { parseAmountInput } from '../amount-input';
import { PAYMENTS_QUERY_KEY } from '../payments-query';

const OPTIONS_QUERY_KEY = ['payments', 'crypto', 'options'] as const;

/** The payment id the cashier's page sends the client back with (`?paymentId=`), if any. */
function returnedPaymentId(): number | null {
  const value = Number(new URLSearchParams(window.location.search).get('paymentId'));
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/**
 * The crypto half of the deposit screen: an amount within the cashier's limits and a coin, then the invoice to pay
 * with its status followed live (polled) until the deposit settles, and a notice saying what arrived.
 */
export function CryptoDeposit() {
  const { t, lang } = useT();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string>();
  const [coin, setCoin] = useState<CryptoMethod>('CRYPTO_USDT_TRC20');
  const [pending, setPending] = useState<{ paymentId: number; invoiceUrl: string | null } | null>(() => {
    const paymentId = returnedPaymentId();
    return paymentId === null ? null : { paymentId, invoiceUrl: null };
  });
  const options = useQuery({ queryKey: OPTIONS_QUERY_KEY, queryFn: paymentsApi.cryptoOptions });

  const open = useMutation({
    mutationFn: paymentsApi.cryptoDeposit,
    onSuccess: (answer) => setPending(answer),
    onError: (error) => {
      const field = fieldErrorsOf(error, lang).amount;
      if (field) setAmountError(field);
      else if (isApiError(error) && error.body.error === 'error.deposit.amount.out.of.range')
        setAmountError(messageForApiError(error.body, lang));
      else notifyError(error);
    },
  });

  const submit = () => {
    const parsed = parseAmountInput(amount);
    if (!parsed.ok) {
      setAmountError(t('deposit.amount'));
      return;
    }
    const limits = options.data;
    const value = minorToAmount(parsed.amountMinor);
    if (limits && (value < limits.minAmount || value > limits.maxAmount)) {
      setAmountError(
        t('deposit.crypto.limits', {
          min: formatDollars(limits.minAmount, lang),
          max: formatDollars(limits.maxAmount, lang),
        }),
      );
      return;
    }
    open.mutate({ amount: value, method: coin });
  };

  if (pending) {
    return (
      <PendingInvoice
        paymentId={pending.paymentId}
        invoiceUrl={pending.invoiceUrl}
        onSettled={() => {
          void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
          void queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY });
        }}
        onAnother={() => {
          setPending(null);
          setAmount('');
        }}
      />
    );
  }
  if (!options.data) return <Skeleton variant="rounded" height={160} />;
  const limitsText = t('deposit.crypto.limits', {
    min: formatDollars(options.data.minAmount, lang),
    max: formatDollars(options.data.maxAmount, lang),
  });
  return (
    <Stack spacing={2} data-testid="crypto-deposit-form">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          label={t('deposit.amount')}
          value={amount}
          onChange={(event) => {
            setAmount(event.target.value);
            setAmountError(undefined);
          }}
          error={Boolean(amountError)}
          helperText={amountError ?? limitsText}
          required
          fullWidth
          slotProps={{
            htmlInput: { ...inputTestId('crypto-amount'), dir: 'ltr', inputMode: 'decimal' },
            input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
          }}
        />
        <TextField
          select
          label={t('deposit.crypto.coin')}
          value={coin}
          onChange={(event) => setCoin(event.target.value as CryptoMethod)}
          sx={{ minWidth: 220 }}
          slotProps={{ htmlInput: inputTestId('crypto-coin') }}
        >
          {options.data.methods.map((method) => (
            <MenuItem key={method} value={method}>
              {enumLabel('paymentMethod', method, lang)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {options.data.provider === 'SANDBOX' && (
        <Alert severity="warning" data-testid="crypto-sandbox">
          {t('deposit.crypto.sandbox')}
        </Alert>
      )}
      <div>
        <Button variant="contained" onClick={submit} disabled={open.isPending} data-testid="crypto-create">
          {t('deposit.crypto.create')}
        </Button>
      </div>
    </Stack>
  );
}

function PendingInvoice({
  paymentId,
  invoiceUrl,
  onSettled,
  onAnother,
}: {
  paymentId: number;
  invoiceUrl: string | null;
  onSettled: () => void;
  onAnother: () => void;
}) {
  const { t, lang } = useT();
  const payment = useQuery({
    queryKey: [...PAYMENTS_QUERY_KEY, 'crypto', paymentId],
    queryFn: () => paymentsApi.get(paymentId),
    // Followed live while the cashier has not settled it.
    refetchInterval: (query) =>
      (query.state.data as Payment | undefined)?.status === 'PENDING' || !query.state.data
        ? CASHIER_DEFAULTS.statusPollIntervalMs
        : false,
    staleTime: 0,
  });
  const data = payment.data;
  const settled = data !== undefined && data.status !== 'PENDING';
  const announced = useRef(false);
  const notice = data ? settledNotice(data, t, lang) : null;
  useEffect(() => {
    if (!settled || announced.current) return;
    announced.current = true;
    onSettled();
    if (data?.status === 'SUCCESS' && notice)
      showToast({ severity: 'success', title: t('deposit.title'), message: notice });
  }, [settled, data, notice, onSettled, t]);

  if (!data) return <Skeleton variant="rounded" height={160} />;
  const link = invoiceUrl ?? data.cashier?.invoiceUrl ?? null;
  const providerStatus = data.cashier?.providerStatus;
  return (
    <Stack spacing={2} data-testid="crypto-pending" aria-live="polite">
      {data.status === 'PENDING' ? (
        <Alert severity="info" icon={false}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('deposit.crypto.pending.title')}
          </Typography>
          <Typography>
            {t('deposit.crypto.pending.body', {
              amount: formatDollars(data.cashier?.amountAsked ?? data.amount, lang),
            })}
          </Typography>
        </Alert>
      ) : (
        <Alert severity={data.status === 'SUCCESS' ? 'success' : 'warning'} data-testid="crypto-settled">
          {notice}
        </Alert>
      )}
      <Typography data-testid="crypto-status">
        {t('deposit.crypto.status')}: {enumLabel('paymentStatus', data.status, lang)}
        {providerStatus
          ? ` · ${t('deposit.crypto.cashierStatus')}: ${CASHIER_PROVIDER_STATUS_LABELS[providerStatus][lang]}`
          : ''}
      </Typography>
      <Stack direction="row" spacing={2}>
        {link && data.status === 'PENDING' && (
          <Button
            variant="contained"
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            endIcon={<OpenInNewIcon />}
            data-testid="crypto-invoice-link"
          >
            {t('deposit.crypto.open')}
          </Button>
        )}
        {settled && (
          <Button variant="outlined" onClick={onAnother} data-testid="crypto-another">
            {t('deposit.crypto.another')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

function settledNotice(
  payment: Payment,
  t: ReturnType<typeof useT>['t'],
  lang: ReturnType<typeof useT>['lang'],
): string | null {
  if (payment.status === 'PENDING') return null;
  const cashier = payment.cashier;
  if (payment.status !== 'SUCCESS' || !cashier)
    return t('deposit.crypto.closed', { status: enumLabel('paymentStatus', payment.status, lang) });
  const received = formatDollars(cashier.amountReceived, lang);
  const asked = formatDollars(cashier.amountAsked, lang);
  if (cashier.amountReceived < cashier.amountAsked) return t('deposit.crypto.settledPartial', { received, asked });
  if (cashier.amountReceived > cashier.amountAsked) return t('deposit.crypto.settledOver', { received, asked });
  return t('deposit.crypto.settled', { amount: received });
}
