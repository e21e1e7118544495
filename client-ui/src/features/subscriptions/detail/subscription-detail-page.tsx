import type { ReactNode } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import {
  clientEnumLabel,
  type Language,
  type RenewalFunding,
  renewsAutomatically,
  type Subscription,
} from '@kupa/proto';
import { errorMessageFor, isApiError } from '../../../lib/api/api-error';
import { formatDate, formatDateTime, formatDollars } from '../../../lib/format';
import { type MessageKey, useT, type Translate } from '../../../lib/i18n/i18n';
import { periodKey } from '../../../lib/plans/plan-price';
import { DescriptionList, type DescriptionRow } from '../../../lib/ui/description-list';
import { mirrorInRtl } from '../../../lib/ui/mirror-in-rtl';
import { Page } from '../../../lib/ui/page';
import { RouterButton } from '../../../lib/ui/router-link';
import { NotFoundView } from '../../errors/not-found-screen';
import { SubscriptionStatusChip } from '../subscription-status-chip';
import { inGrace, isTrial, subscriptionDetailQueryOptions, subscriptionName } from '../subscriptions-query';
import { TrialRules } from '../trial-offer';
import { ConnectSection } from './connect-section';
import { ExtensionsSection } from './extensions-section';
import { RenewalFundingSection } from './renewal-funding-section';
import { SubscriptionActions } from './subscription-actions';

const RECURRENT_YES_BY_FUNDING: Record<RenewalFunding, MessageKey> = {
  BALANCE: 'subscription.recurrent.yes',
  BALANCE_THEN_CARD: 'subscription.recurrent.yesBalanceThenCard',
  CARD: 'subscription.recurrent.yesCard',
};

const routeApi = getRouteApi('/app/subscriptions/$subscriptionId');

function isNotFound(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.code === 'error.subscription.not.found');
}

function detailRows(subscription: Subscription, t: Translate, lang: Language): DescriptionRow[] {
  const date = (iso: string | null) => (iso ? formatDate(iso, lang) : '—');
  const period = periodKey(subscription.durationInMonth);
  const rows: DescriptionRow[] = [
    [
      t('subscription.field.status'),
      <SubscriptionStatusChip key="status" subscription={subscription} />,
      'subscription-detail-status',
    ],
    [
      t('subscription.field.type'),
      clientEnumLabel('subscriptionType', subscription.type, lang),
      'subscription-detail-type',
    ],
  ];
  if (!isTrial(subscription)) {
    rows.push([
      t('subscription.field.price'),
      <span key="price">
        <bdi dir="ltr">{formatDollars(subscription.price, lang)}</bdi>
        {period ? ` ${t(period)}` : ''}
      </span>,
      'subscription-detail-price',
    ]);
  }
  rows.push(
    [t('subscription.field.start'), date(subscription.startDate), 'subscription-detail-start'],
    [t('subscription.field.end'), date(subscription.endDate), 'subscription-detail-end'],
  );
  if (inGrace(subscription)) {
    rows.push([t('subscription.field.graceEndsAt'), date(subscription.graceEndsAt), 'subscription-detail-grace-ends']);
  }
  if (!isTrial(subscription)) {
    rows.push(
      [
        t('subscription.field.recurrent'),
        // The package's `isRecurrent` stays true after a stop or a cancellation; what will happen is the rule's.
        // Said with how the renewal is paid, so this line never contradicts the funding choice below it.
        renewsAutomatically(subscription)
          ? t(RECURRENT_YES_BY_FUNDING[subscription.renewalFunding])
          : subscription.isRecurrent
            ? t('subscription.recurrent.stopped')
            : t('subscription.recurrent.no'),
        'subscription-detail-recurrent',
      ],
      [
        t('subscription.field.nextPayment'),
        subscription.nextPaymentDate ? formatDate(subscription.nextPaymentDate, lang) : t('subscription.noNextPayment'),
        'subscription-detail-next-payment',
      ],
    );
  }
  rows.push(
    [
      t('subscription.field.login'),
      <bdi key="login" dir="ltr">
        {subscription.login}
      </bdi>,
      'subscription-detail-login',
    ],
    [t('subscription.field.createdAt'), formatDateTime(subscription.createdAt, lang), 'subscription-detail-created-at'],
  );
  return rows;
}

/** What the client should know about the subscription's state before its facts. */
function StateNotices({ subscription }: { subscription: Subscription }) {
  const { t, tIsolated, lang } = useT();
  const end = subscription.endDate ? formatDate(subscription.endDate, lang) : null;
  const notices: ReactNode[] = [];
  if (subscription.status === 'PENDING') {
    notices.push(
      <Alert
        key="pending"
        severity="info"
        role="status"
        icon={<CircularProgress size={20} aria-hidden />}
        data-testid="subscription-pending"
      >
        {t('subscription.pending')}
      </Alert>,
    );
  }
  if (subscription.cancelAtPeriodEnd && subscription.status === 'ACTIVE') {
    notices.push(
      <Alert key="cancelled" severity="warning" data-testid="subscription-cancel-notice">
        {end ? tIsolated('subscription.cancelNotice', { date: end }) : t('subscription.cancelNoticeNoDate')}
      </Alert>,
    );
  }
  if (inGrace(subscription)) {
    const until = subscription.graceEndsAt ? formatDate(subscription.graceEndsAt, lang) : '—';
    notices.push(
      <Alert key="grace" severity="warning" data-testid="subscription-grace-notice">
        <AlertTitle>{t('subscription.graceTitle')}</AlertTitle>
        {tIsolated('subscription.graceNotice', { login: subscription.login, date: until })}
      </Alert>,
    );
  }
  if (subscription.status === 'UNSUBSCRIBED') {
    notices.push(
      <Alert key="unsubscribed" severity="info" data-testid="subscription-unsubscribed-notice">
        {end ? tIsolated('subscription.unsubscribedNotice', { date: end }) : t('subscription.unsubscribedNoticeNoDate')}
      </Alert>,
    );
  }
  if (isTrial(subscription)) {
    notices.push(
      <Alert key="trial" severity="info" data-testid="subscription-trial-notice">
        <AlertTitle>{t('subscription.trialNotice')}</AlertTitle>
        <TrialRules />
      </Alert>,
    );
  }
  return <>{notices}</>;
}

/**
 * One of the client's subscriptions (`GET /subscriptions/{id}`); the API answers 404 for one that is not theirs. While
 * PENDING it asks again every few seconds, until the streaming service has the account.
 */
export function SubscriptionDetailPage() {
  const { subscriptionId } = routeApi.useParams();
  const { t, lang, errorMessage } = useT();
  const query = useQuery(subscriptionDetailQueryOptions(subscriptionId));

  if (query.isError && isNotFound(query.error)) {
    return <NotFoundView embedded message={errorMessage('error.subscription.not.found')} />;
  }
  const subscription = query.data;

  return (
    <Page title={subscription ? subscriptionName(subscription, t) : t('subscription.title')}>
      <div>
        <RouterButton to="/subscriptions" variant="text" startIcon={<ArrowBackIcon sx={mirrorInRtl} />}>
          {t('subscription.back')}
        </RouterButton>
      </div>
      {query.isError ? (
        isApiError(query.error) && query.error.handled ? null : (
          <Alert severity="error" data-testid="subscription-detail-error">
            {errorMessageFor(query.error, lang)}
          </Alert>
        )
      ) : !subscription ? (
        <Skeleton variant="rounded" height={360} aria-label={t('common.loading')} />
      ) : (
        <>
          <StateNotices subscription={subscription} />
          <Paper
            variant="outlined"
            sx={{ p: 3 }}
            data-testid="subscription-detail"
            data-subscription-id={subscription.id}
          >
            <DescriptionList rows={detailRows(subscription, t, lang)} />
          </Paper>
          <ExtensionsSection extensions={subscription.extensions} startedByVoucher={subscription.startedByVoucher} />
          <ConnectSection connect={subscription.connect} />
          <RenewalFundingSection subscription={subscription} />
          <SubscriptionActions subscription={subscription} />
        </>
      )}
    </Page>
  );
}
