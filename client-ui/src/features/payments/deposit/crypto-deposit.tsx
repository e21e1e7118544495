import { useEffect, useRef, useState } from 'react';
import { useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import {
  CASHIER_DEFAULTS,
  CASHIER_PROVIDER_STATUS_LABELS,
  type CryptoMethod,
  clientEnumLabel,
  clientMessageForApiError,
  minorToAmount,
} from '@kupa/proto';
import { fieldErrorsOf, isApiError } from '../../../lib/api/api-error';
import { paymentsApi } from '../../../lib/api/endpoints';
import { notifyError } from '../../../lib/api/query-client';
import { ME_QUERY_KEY } from '../../../lib/api/use-me';
import { formatDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { RouterButton } from '../../../lib/ui/router-link';
import { mirrorInRtl } from '../../../lib/ui/mirror-in-rtl';
import { parseAmountInput } from '../amount-input';
import { DollarAmountField } from '../dollar-amount-field';
import { CoinSelect, cryptoOptionsQueryOptions, DEFAULT_COIN } from '../crypto-options';
import { creditedSentence, depositOutcomeKnown, purchaseSentence } from '../deposit-outcome';
import { PAYMENTS_QUERY_KEY } from '../payments-query';
import { AmbassadorBonusPreview } from './bonus-preview';
import { ReadOnlyAction } from '../../../lib/view-as/read-only-action';

interface CryptoDepositProps {
  /** The amount typed, kept by the deposit screen so that switching the method does not lose it. */
  amount: string;
  onAmountChange: (amount: string) => void;
}

/**
 * The crypto half of the deposit screen: an amount within the cashier's limits and a coin, then the invoice to pay
 * with its status followed live (polled) until the deposit settles, saying what arrived (and what it bought). The
 * notice itself comes from the app-wide `DepositWatcher`. Opened with `?paymentId=` (the cashier's page sends the
 * client back so, and deposit-and-buy leads here) it shows that deposit.
 */
export function CryptoDeposit({ amount, onAmountChange: setAmount }: CryptoDepositProps) {
  const { t, lang } = useT();
  const queryClient = useQueryClient();
  const [amountError, setAmountError] = useState<string>();
  const [coin, setCoin] = useState<CryptoMethod>(DEFAULT_COIN);
  const search: { paymentId?: number } = useSearch({ strict: false });
  const [pending, setPending] = useState<{ paymentId: number; invoiceUrl: string | null } | null>(() =>
    search.paymentId === undefined ? null : { paymentId: search.paymentId, invoiceUrl: null },
  );
  const options = useQuery(cryptoOptionsQueryOptions());

  const open = useMutation({
    mutationFn: paymentsApi.cryptoDeposit,
    onSuccess: (answer) => {
      setPending(answer);
      // The app-wide watch of pending deposits picks the new one up.
      void queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY });
    },
    onError: (error) => {
      const field = fieldErrorsOf(error, lang).amount;
      if (field) setAmountError(field);
      else if (isApiError(error) && error.body.error === 'error.deposit.amount.out.of.range')
        setAmountError(clientMessageForApiError(error.body, lang));
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
        <DollarAmountField
          label={t('deposit.amount')}
          value={amount}
          onChange={(text) => {
            setAmount(text);
            setAmountError(undefined);
          }}
          error={amountError}
          hint={limitsText}
          testId="crypto-amount"
        />
        <CoinSelect value={coin} onChange={setCoin} testId="crypto-coin" />
      </Stack>
      <AmbassadorBonusPreview amount={amount} />
      {options.data.provider === 'SANDBOX' && (
        <Alert severity="warning" data-testid="crypto-sandbox">
          {t('deposit.crypto.sandbox')}
        </Alert>
      )}
      <div>
        <ReadOnlyAction>
          <Button variant="contained" onClick={submit} disabled={open.isPending} data-testid="crypto-create">
            {t('deposit.crypto.create')}
          </Button>
        </ReadOnlyAction>
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
    // Followed live until the money settles and what it buys is done.
    refetchInterval: (query) =>
      !query.state.data || !depositOutcomeKnown(query.state.data) ? CASHIER_DEFAULTS.statusPollIntervalMs : false,
    staleTime: 0,
  });
  const data = payment.data;
  const settled = data !== undefined && data.status !== 'PENDING';
  const announced = useRef(false);
  useEffect(() => {
    if (!settled || announced.current) return;
    announced.current = true;
    onSettled();
  }, [settled, onSettled]);

  if (!data) return <Skeleton variant="rounded" height={160} />;
  const link = invoiceUrl ?? data.cashier?.invoiceUrl ?? null;
  const providerStatus = data.cashier?.providerStatus;
  const purchase = purchaseSentence(data, lang);
  const subscriptionId = data.purchase?.status === 'DONE' ? data.purchase.subscriptionId : null;
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
          {purchase && (
            <Typography sx={{ mt: 0.5 }} data-testid="crypto-purchase">
              {purchase}
            </Typography>
          )}
        </Alert>
      ) : (
        <Alert
          severity={data.status === 'SUCCESS' && data.purchase?.status !== 'FAILED' ? 'success' : 'warning'}
          data-testid="crypto-settled"
        >
          {creditedSentence(data, lang)}
          {purchase && data.status === 'SUCCESS' && (
            <Typography
              variant="inherit"
              component="span"
              sx={{ display: 'block', mt: 0.5 }}
              data-testid="crypto-purchase"
            >
              {purchase}
            </Typography>
          )}
        </Alert>
      )}
      <Typography data-testid="crypto-status">
        {t('deposit.crypto.status')}: {clientEnumLabel('paymentStatus', data.status, lang)}
        {providerStatus
          ? ` · ${t('deposit.crypto.cashierStatus')}: ${CASHIER_PROVIDER_STATUS_LABELS[providerStatus][lang]}`
          : ''}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        {link && data.status === 'PENDING' && (
          <Button
            variant="contained"
            href={link}
            target="_blank"
            rel="noopener noreferrer"
            endIcon={<OpenInNewIcon sx={mirrorInRtl} />}
            data-testid="crypto-invoice-link"
          >
            {t('deposit.crypto.open')}
          </Button>
        )}
        {subscriptionId && (
          <RouterButton
            to="/subscriptions/$subscriptionId"
            params={{ subscriptionId }}
            variant="contained"
            data-testid="crypto-subscription"
          >
            {t('deposit.purchase.toSubscription')}
          </RouterButton>
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
