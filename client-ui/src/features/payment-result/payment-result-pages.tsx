import { useEffect, useRef } from 'react';
import { useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { CASHIER_DEFAULTS, clientEnumLabel, type Payment } from '@kupa/proto';
import { errorMessageFor } from '../../lib/api/api-error';
import { paymentsApi } from '../../lib/api/endpoints';
import { ME_QUERY_KEY } from '../../lib/api/use-me';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { DescriptionList, type DescriptionRow } from '../../lib/ui/description-list';
import { Page } from '../../lib/ui/page';
import { RouterButton } from '../../lib/ui/router-link';
import { creditedSentence, depositOutcomeKnown, purchaseSentence } from '../payments/deposit-outcome';
import { PAYMENTS_QUERY_KEY } from '../payments/payments-query';
import { SUBSCRIPTIONS_QUERY_KEY } from '../subscriptions/subscriptions-query';

type Landing = 'success' | 'failed';

/**
 * Where the card checkout and the cashier send the client back (`/paymentSuccess`, `/paymentFailed`, with
 * `?paymentId=`). The address only says which way the client left the provider's page; the screen reads the payment
 * itself and shows what really happened: its status, its amount, what it bought. A payment still PENDING is followed
 * (polled) until it settles and its purchase is done, then the balance and subscriptions are read again.
 */
function PaymentResult({ landing }: { landing: Landing }) {
  const { paymentId }: { paymentId?: number } = useSearch({ strict: false });
  const { t, errorMessage, lang } = useT();
  const queryClient = useQueryClient();
  const payment = useQuery({
    queryKey: [...PAYMENTS_QUERY_KEY, 'result', paymentId],
    queryFn: () => paymentsApi.get(paymentId as number),
    enabled: paymentId !== undefined,
    refetchInterval: (query) =>
      query.state.data && !depositOutcomeKnown(query.state.data) ? CASHIER_DEFAULTS.statusPollIntervalMs : false,
    // Explained in place.
    meta: { silentError: true },
    retry: false,
  });
  const data = payment.data;
  // The ambassador bonus a deposit earned is a payment of its own, booked with it: read for its amount.
  const bonusPaymentId = data?.status === 'SUCCESS' ? data.bonusPaymentId : null;
  const bonus = useQuery({
    queryKey: [...PAYMENTS_QUERY_KEY, 'result', 'bonus', bonusPaymentId],
    queryFn: () => paymentsApi.get(bonusPaymentId as number),
    enabled: bonusPaymentId !== null,
    meta: { silentError: true },
    retry: false,
  });
  const known = data !== undefined && depositOutcomeKnown(data);
  const refreshed = useRef(false);
  useEffect(() => {
    if (!known || refreshed.current) return;
    refreshed.current = true;
    void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY });
  }, [known, queryClient]);

  // Without a payment to read, the landing is all there is to say.
  if (paymentId === undefined)
    return landing === 'success' ? (
      <Page title={t('paymentSuccess.title')}>
        <Alert severity="success" data-testid="payment-success">
          {t('paymentSuccess.body')}
        </Alert>
        <Actions />
      </Page>
    ) : (
      <Page title={t('paymentFailed.title')}>
        <Alert severity="error" data-testid="payment-failed">
          {errorMessage('error.payment.failed')}
        </Alert>
        <Actions />
      </Page>
    );

  if (payment.isError)
    return (
      <Page title={landing === 'success' ? t('paymentSuccess.title') : t('paymentFailed.title')}>
        <Alert severity="error" data-testid="payment-result-error">
          {errorMessageFor(payment.error, lang)}
        </Alert>
        <Actions />
      </Page>
    );
  if (!data)
    return (
      <Page title={t('paymentResult.pendingTitle')}>
        <Skeleton variant="rounded" height={180} />
      </Page>
    );

  const outcome = resultOf(data);
  const purchase = purchaseSentence(data, lang);
  const subscriptionId = data.purchase?.status === 'DONE' ? data.purchase.subscriptionId : null;
  const rows: DescriptionRow[] = [
    [t('paymentResult.payment'), <bdi key="id">{data.paymentId}</bdi>, 'payment-result-id'],
    [t('paymentResult.status'), clientEnumLabel('paymentStatus', data.status, lang), 'payment-result-status'],
    [
      t('paymentResult.amount'),
      <bdi key="amount" dir="ltr">
        {formatDollars(data.amount, lang)}
      </bdi>,
      'payment-result-amount',
    ],
    ...(data.purchase
      ? [
          [
            t('paymentResult.purchase'),
            <span key="purchase">
              {clientEnumLabel('depositPurchaseKind', data.purchase.kind, lang)} · <bdi>{data.purchase.planName}</bdi> ·{' '}
              {clientEnumLabel('depositPurchaseStatus', data.purchase.status, lang)}
            </span>,
            'payment-result-purchase',
          ] satisfies DescriptionRow,
        ]
      : []),
    ...(bonus.data
      ? [
          [
            t('paymentResult.bonus'),
            <bdi key="bonus" dir="ltr">
              {formatDollars(bonus.data.amount, lang)}
            </bdi>,
            'payment-result-bonus',
          ] satisfies DescriptionRow,
        ]
      : []),
  ];

  return (
    <Page
      title={
        outcome === 'pending'
          ? t('paymentResult.pendingTitle')
          : outcome === 'success'
            ? t('paymentSuccess.title')
            : t('paymentFailed.title')
      }
    >
      <Alert
        severity={outcome === 'pending' ? 'info' : outcome === 'success' ? 'success' : 'error'}
        data-testid="payment-result"
        data-outcome={outcome}
        aria-live="polite"
      >
        {outcome === 'pending'
          ? t('paymentResult.pending')
          : outcome === 'failed'
            ? t('paymentResult.failed', { status: clientEnumLabel('paymentStatus', data.status, lang) })
            : // A crypto deposit and a card top-up (no purchase, ADR 0082) say what reached the balance.
              data.aggregator === 'CASHIER' || (data.aggregator === 'STRIPE' && !data.purchase)
              ? creditedSentence(data, lang)
              : t('paymentSuccess.body')}
        {bonus.data && outcome === 'success' && (
          <Box component="span" sx={{ display: 'block', mt: 0.5 }} data-testid="payment-result-bonus-text">
            {t('paymentResult.bonusCredited', { amount: formatDollars(bonus.data.amount, lang) })}
          </Box>
        )}
        {purchase && data.status !== 'PENDING' && outcome !== 'failed' && (
          <Box component="span" sx={{ display: 'block', mt: 0.5 }} data-testid="payment-result-purchase-text">
            {purchase}
          </Box>
        )}
      </Alert>
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
        <DescriptionList rows={rows} />
      </Paper>
      <Actions paymentId={data.paymentId} subscriptionId={subscriptionId} />
    </Page>
  );
}

/** Settled with money (`SUCCESS`), still on its way (`PENDING`), or closed without (every other status). */
function resultOf(payment: Payment): 'success' | 'pending' | 'failed' {
  if (payment.status === 'PENDING') return 'pending';
  return payment.status === 'SUCCESS' ? 'success' : 'failed';
}

function Actions({ paymentId, subscriptionId }: { paymentId?: number; subscriptionId?: string | null }) {
  const { t } = useT();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
      {subscriptionId && (
        <RouterButton
          to="/subscriptions/$subscriptionId"
          params={{ subscriptionId }}
          variant="contained"
          data-testid="payment-result-subscription"
        >
          {t('deposit.purchase.toSubscription')}
        </RouterButton>
      )}
      {paymentId !== undefined && (
        <RouterButton
          to="/payments/$paymentId"
          params={{ paymentId: String(paymentId) }}
          variant={subscriptionId ? 'outlined' : 'contained'}
          data-testid="payment-result-payment"
        >
          {t('paymentResult.toPayment')}
        </RouterButton>
      )}
      <RouterButton to="/payments" variant="outlined" data-testid="payment-result-payments">
        {t('paymentFailed.toPayments')}
      </RouterButton>
    </Stack>
  );
}

/** Where the providers send the client back after a successful payment. */
export function PaymentSuccessPage() {
  return <PaymentResult landing="success" />;
}

/** Where the providers send the client back after a failed or abandoned payment. */
export function PaymentFailedPage() {
  return <PaymentResult landing="failed" />;
}
