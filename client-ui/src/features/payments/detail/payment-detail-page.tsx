import type { ReactNode } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { mirrorInRtl } from '../../../lib/ui/mirror-in-rtl';
import {
  CARD_PROVIDER_LABELS,
  clientEnumLabel,
  type Payment,
  PUBLIC_STAFF_ACTOR_NAME,
  type Receipt,
} from '@kupa/proto';
import { receiptTitle } from '@kupa/proto/receipt-lines';
import { errorMessageFor, isApiError } from '../../../lib/api/api-error';
import { paymentsApi } from '../../../lib/api/endpoints';
import { formatDateTime } from '../../../lib/format';
import { useT, type MessageKey } from '../../../lib/i18n/i18n';
import { DescriptionList, type DescriptionRow } from '../../../lib/ui/description-list';
import { Page } from '../../../lib/ui/page';
import { RouterButton, RouterLink } from '../../../lib/ui/router-link';
import { NotFoundView } from '../../errors/not-found-screen';
import { PaymentAmount, PaymentPromoCode, PaymentStatusChip } from '../payment-money';
import { paymentDetailQueryKey } from '../payments-query';
import { parsePaymentId } from './payment-id';
import { useReceipts } from '../../receipts/receipts-query';
import { receiptText } from '../../receipts/receipt-text';

const routeApi = getRouteApi('/app/payments/$paymentId');

function isNotFound(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.code === 'error.payment.not.found');
}

type Row = [MessageKey, ReactNode, string];

/** Kupa's staff or the system did it: shown under the app's own name in the page language, never an e-mail. */
function KupaAuthor() {
  const { t } = useT();
  return <>{t('app.name')}</>;
}

/**
 * Providers that are Kupa itself: the row would say "Internal", which tells a client nothing, so it is left out
 * (docs/adr/0077-details-people-can-read.md).
 */
const INTERNAL_AGGREGATORS: ReadonlySet<Payment['aggregator']> = new Set(['INTERNAL', 'INTERNAL_BALANCE']);

/** The package a payment bought or renewed: from the balance (`paidFor`) or through a deposit (`purchase`). */
function packageNameOf(payment: Payment): string | null {
  return payment.paidFor?.planName ?? payment.purchase?.planName ?? null;
}

/**
 * The other side of a transfer: the name they entered, with the profile ID a transfer is sent to beside it; the
 * profile ID alone when no account answers for it any more. Never an e-mail or an internal id.
 */
function Counterparty({ name, profileId }: { name: string | null; profileId: string }) {
  if (!name) return <bdi>{profileId}</bdi>;
  return (
    <>
      <bdi>{name}</bdi>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {' · '}
        <bdi>{profileId}</bdi>
      </Box>
    </>
  );
}

/**
 * What a client reads about one of their payments. Left out: Kupa's internal ids (the transfer id), a provider row
 * that would say "Internal", and who created or changed it when that was the client themselves or the other side of
 * a transfer, which the counterparty row already says (docs/adr/0077-details-people-can-read.md).
 */
function detailRows(payment: Payment, lang: 'he' | 'en'): Row[] {
  const rows: Row[] = [
    ['payment.field.id', <bdi key="id">#{payment.paymentId}</bdi>, 'payment-detail-id'],
    ['payment.field.type', clientEnumLabel('paymentType', payment.type, lang), 'payment-detail-type'],
    ['payment.field.status', <PaymentStatusChip key="status" status={payment.status} />, 'payment-detail-status'],
    ['payment.field.amount', <PaymentAmount key="amount" payment={payment} />, 'payment-detail-amount'],
  ];
  const packageName = packageNameOf(payment);
  if (packageName) {
    rows.push([
      'payment.field.package',
      <Box key="package" component="span" dir="auto">
        {packageName}
      </Box>,
      'payment-detail-package',
    ]);
  }
  if (payment.promoCode) {
    rows.push([
      'payment.field.promoCode',
      <PaymentPromoCode key="promoCode" payment={payment} testId="payment-detail-promo-code-text" />,
      'payment-detail-promo-code',
    ]);
  }
  if (payment.type === 'TRANSFER_OUT' && payment.recipientProfileId) {
    rows.push([
      'payment.field.transferTo',
      <Counterparty key="to" name={payment.counterpartyName ?? null} profileId={payment.recipientProfileId} />,
      'payment-detail-counterparty',
    ]);
  }
  if (payment.type === 'TRANSFER_IN' && payment.senderProfileId) {
    rows.push([
      'payment.field.transferFrom',
      <Counterparty key="from" name={payment.counterpartyName ?? null} profileId={payment.senderProfileId} />,
      'payment-detail-counterparty',
    ]);
  }
  rows.push(
    [
      'payment.field.currency',
      `${payment.currency} · ${clientEnumLabel('currency', payment.currency, lang)}`,
      'payment-detail-currency',
    ],
    ['payment.field.method', clientEnumLabel('paymentMethod', payment.method, lang), 'payment-detail-method'],
  );
  if (!INTERNAL_AGGREGATORS.has(payment.aggregator)) {
    rows.push([
      'payment.field.aggregator',
      clientEnumLabel('paymentAggregator', payment.aggregator, lang),
      'payment-detail-aggregator',
    ]);
  }
  // A card payment names who held its checkout: Stripe, or the sandbox card whose money nobody paid (ADR 0080).
  if (payment.card) {
    rows.push([
      'payment.field.cardProvider',
      CARD_PROVIDER_LABELS[payment.card.provider][lang],
      'payment-detail-card-provider',
    ]);
  }
  // A subscription payment Kupa gave back to the balance (ADR 0092): the REFUND payment that did it.
  if (payment.refundedByPaymentId) {
    rows.push([
      'payment.field.refundedBy',
      <RouterLink
        key="refundedBy"
        to="/payments/$paymentId"
        params={{ paymentId: String(payment.refundedByPaymentId) }}
        data-testid="payment-detail-refunded-link"
      >
        <bdi>#{payment.refundedByPaymentId}</bdi>
      </RouterLink>,
      'payment-detail-refunded-by',
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
  rows.push(['payment.field.createdAt', formatDateTime(payment.createdAt, lang), 'payment-detail-created-at']);
  if (payment.createdBy === PUBLIC_STAFF_ACTOR_NAME) {
    rows.push(['payment.field.createdBy', <KupaAuthor key="createdBy" />, 'payment-detail-created-by']);
  }
  if (payment.updatedAt !== payment.createdAt) {
    rows.push(['payment.field.updatedAt', formatDateTime(payment.updatedAt, lang), 'payment-detail-updated-at']);
    if (payment.updatedBy === PUBLIC_STAFF_ACTOR_NAME) {
      rows.push(['payment.field.updatedBy', <KupaAuthor key="updatedBy" />, 'payment-detail-updated-by']);
    }
  }
  return rows;
}

/** The receipts a payment earned (a crypto deposit may have one per credit), each a link to its page. */
function receiptRows(
  receipts: readonly Receipt[],
  paymentId: number,
  label: string,
  title: (number: number) => string,
): DescriptionRow[] {
  const own = receipts.filter((receipt) => receipt.paymentId === paymentId);
  if (own.length === 0) return [];
  return [
    [
      label,
      <Box key="receipts" component="span" sx={{ display: 'inline-flex', gap: 2, flexWrap: 'wrap' }}>
        {own.map((receipt) => (
          <RouterLink
            key={receipt.number}
            to="/receipts/$number"
            params={{ number: String(receipt.number) }}
            data-testid="payment-detail-receipt-link"
          >
            {title(receipt.number)}
          </RouterLink>
        ))}
      </Box>,
      'payment-detail-receipt',
    ],
  ];
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
  const receipts = useReceipts();
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
            rows={[
              ...detailRows(payment.data, lang).map(([label, value, testId]): DescriptionRow => [
                t(label),
                value,
                testId,
              ]),
              ...receiptRows(receipts.data?.items ?? [], paymentId, receiptText('receipt', lang), (number) =>
                receiptTitle(number, lang),
              ),
            ]}
          />
        </Paper>
      )}
    </Page>
  );
}
