import type { ReactNode } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { mirrorInRtl } from '../../../lib/ui/mirror-in-rtl';
import { enumLabel, type Payment, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
import { errorMessageFor, isApiError } from '../../../lib/api/api-error';
import { paymentsApi } from '../../../lib/api/endpoints';
import { formatDateTime } from '../../../lib/format';
import { useT, type MessageKey } from '../../../lib/i18n/i18n';
import { DescriptionList, type DescriptionRow } from '../../../lib/ui/description-list';
import { Page } from '../../../lib/ui/page';
import { RouterButton } from '../../../lib/ui/router-link';
import { NotFoundView } from '../../errors/not-found-screen';
import { PaymentAmount, PaymentStatusChip } from '../payment-money';
import { paymentDetailQueryKey } from '../payments-query';
import { parsePaymentId } from './payment-id';

const routeApi = getRouteApi('/app/payments/$paymentId');

function isNotFound(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.code === 'error.payment.not.found');
}

type Row = [MessageKey, ReactNode, string];

/**
 * Who booked or changed the payment, as the API tells a client: their own e-mail, a sender's profile ID, or Kupa for
 * staff and the system, shown under the app's own name in the page language. Never a staff member's e-mail.
 */
function Author({ label }: { label: string }) {
  const { t } = useT();
  return label === PUBLIC_STAFF_ACTOR_NAME ? <>{t('app.name')}</> : <bdi>{label}</bdi>;
}

function detailRows(payment: Payment, lang: 'he' | 'en'): Row[] {
  const rows: Row[] = [
    ['payment.field.id', <bdi key="id">#{payment.paymentId}</bdi>, 'payment-detail-id'],
    ['payment.field.type', enumLabel('paymentType', payment.type, lang), 'payment-detail-type'],
    ['payment.field.status', <PaymentStatusChip key="status" status={payment.status} />, 'payment-detail-status'],
    ['payment.field.amount', <PaymentAmount key="amount" payment={payment} />, 'payment-detail-amount'],
    [
      'payment.field.currency',
      `${payment.currency} · ${enumLabel('currency', payment.currency, lang)}`,
      'payment-detail-currency',
    ],
    ['payment.field.method', enumLabel('paymentMethod', payment.method, lang), 'payment-detail-method'],
    ['payment.field.aggregator', enumLabel('paymentAggregator', payment.aggregator, lang), 'payment-detail-aggregator'],
  ];
  // Both profile IDs are shown for transfers: the client sees who sent and who received, never their e-mails.
  if (payment.senderProfileId) {
    rows.push(['payment.field.sender', <bdi key="sender">{payment.senderProfileId}</bdi>, 'payment-detail-sender']);
  }
  if (payment.recipientProfileId) {
    rows.push([
      'payment.field.recipient',
      <bdi key="recipient">{payment.recipientProfileId}</bdi>,
      'payment-detail-recipient',
    ]);
  }
  if (payment.transferId) {
    rows.push([
      'payment.field.transferId',
      <bdi key="transfer">{payment.transferId}</bdi>,
      'payment-detail-transfer-id',
    ]);
  }
  // What staff chose to tell the client; the internal comment never reaches a client's answer.
  if (payment.publicNote) {
    rows.push([
      'payment.field.publicNote',
      <Box key="publicNote" component="span" dir="auto" sx={{ whiteSpace: 'pre-wrap' }}>
        {payment.publicNote}
      </Box>,
      'payment-detail-public-note',
    ]);
  }
  rows.push(
    ['payment.field.createdAt', formatDateTime(payment.createdAt, lang), 'payment-detail-created-at'],
    ['payment.field.createdBy', <Author key="createdBy" label={payment.createdBy} />, 'payment-detail-created-by'],
    ['payment.field.updatedAt', formatDateTime(payment.updatedAt, lang), 'payment-detail-updated-at'],
    ['payment.field.updatedBy', <Author key="updatedBy" label={payment.updatedBy} />, 'payment-detail-updated-by'],
  );
  return rows;
}

/** One of the client's own payments; the server answers 404 for an id that is not theirs, shown as not found. */
export function PaymentDetailPage() {
  const { paymentId: rawId } = routeApi.useParams();
  const paymentId = parsePaymentId(rawId);
  return paymentId === null ? <PaymentNotFound /> : <PaymentDetail paymentId={paymentId} />;
}

function PaymentNotFound() {
  const { errorMessage } = useT();
  return <NotFoundView embedded message={errorMessage('error.payment.not.found')} />;
}

function PaymentDetail({ paymentId }: { paymentId: number }) {
  const { t, lang } = useT();
  const payment = useQuery({
    queryKey: paymentDetailQueryKey(paymentId),
    queryFn: () => paymentsApi.get(paymentId),
    // A missing payment is a screen of its own, not a toast; other failures are explained in place as well.
    meta: { silentError: true },
  });

  if (payment.isError && isNotFound(payment.error)) return <PaymentNotFound />;

  return (
    <Page title={t('payment.title', { id: paymentId })}>
      <div>
        <RouterButton to="/payments" variant="text" startIcon={<ArrowBackIcon sx={mirrorInRtl} />}>
          {t('payment.back')}
        </RouterButton>
      </div>
      {payment.isError ? (
        isApiError(payment.error) && payment.error.handled ? null : (
          <Alert severity="error" data-testid="payment-detail-error">
            {errorMessageFor(payment.error, lang)}
          </Alert>
        )
      ) : !payment.data ? (
        <Skeleton variant="rounded" height={360} aria-label={t('common.loading')} />
      ) : (
        <Paper variant="outlined" sx={{ p: 3 }} data-testid="payment-detail" data-payment-id={payment.data.paymentId}>
          <DescriptionList
            rows={detailRows(payment.data, lang).map(([label, value, testId]): DescriptionRow => [
              t(label),
              value,
              testId,
            ])}
          />
        </Paper>
      )}
    </Page>
  );
}
