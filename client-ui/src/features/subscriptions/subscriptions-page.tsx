import { useQuery } from '@tanstack/react-query';
import { createLink } from '@tanstack/react-router';
import Alert from '@mui/material/Alert';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { Subscription } from '@kupa/proto';
import { errorMessageFor, isApiError } from '../../lib/api/api-error';
import { formatDate } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { EmptyState, Page } from '../../lib/ui/page';
import { RouterButton, RouterLink } from '../../lib/ui/router-link';
import { SubscriptionStatusChip } from './subscription-status-chip';
import { subscriptionName, subscriptionsListQueryOptions } from './subscriptions-query';
import { TrialOffer, useTrialOfferDecision } from './trial-offer';

const ListItemLink = createLink(ListItemButton);

function dateOrDash(iso: string | null, lang: 'he' | 'en'): string {
  return iso ? formatDate(iso, lang) : '—';
}

/** On a phone, one card per subscription: name and status first, then the period, the next payment and the login. */
function SubscriptionCards({ subscriptions }: { subscriptions: readonly Subscription[] }) {
  const { t, lang } = useT();
  return (
    <Paper variant="outlined">
      <List disablePadding aria-label={t('subscriptions.listLabel')} data-testid="subscriptions-cards">
        {subscriptions.map((subscription) => (
          <ListItem
            key={subscription.id}
            divider
            disablePadding
            data-testid="subscriptions-row"
            data-subscription-id={subscription.id}
          >
            <ListItemLink
              to="/subscriptions/$subscriptionId"
              params={{ subscriptionId: subscription.id }}
              data-testid="subscriptions-row-link"
            >
              <Stack spacing={0.5} sx={{ width: '100%' }}>
                <Stack
                  direction="row"
                  spacing={1}
                  useFlexGap
                  sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' }}
                >
                  <Typography sx={{ fontWeight: 600 }} dir="auto" data-testid="subscriptions-row-name">
                    {subscriptionName(subscription, t)}
                  </Typography>
                  <SubscriptionStatusChip subscription={subscription} testId="subscriptions-row-status" />
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {t('subscriptions.period', {
                    start: dateOrDash(subscription.startDate, lang),
                    end: dateOrDash(subscription.endDate, lang),
                  })}
                </Typography>
                {subscription.nextPaymentDate && (
                  <Typography variant="body2" color="text.secondary">
                    {t('subscriptions.nextPaymentOn', { date: formatDate(subscription.nextPaymentDate, lang) })}
                  </Typography>
                )}
                <Typography variant="body2">
                  {t('subscriptions.column.login')}: <bdi dir="ltr">{subscription.login}</bdi>
                </Typography>
              </Stack>
            </ListItemLink>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

/** From the medium breakpoint up, a table; the package's name links to the subscription. */
function SubscriptionsTable({ subscriptions }: { subscriptions: readonly Subscription[] }) {
  const { t, lang } = useT();
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label={t('subscriptions.listLabel')} data-testid="subscriptions-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('subscriptions.column.name')}</TableCell>
            <TableCell>{t('subscriptions.column.status')}</TableCell>
            <TableCell>{t('subscriptions.column.start')}</TableCell>
            <TableCell>{t('subscriptions.column.end')}</TableCell>
            <TableCell>{t('subscriptions.column.nextPayment')}</TableCell>
            <TableCell>{t('subscriptions.column.login')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {subscriptions.map((subscription) => (
            <TableRow
              key={subscription.id}
              hover
              data-testid="subscriptions-row"
              data-subscription-id={subscription.id}
            >
              <TableCell>
                <RouterLink
                  to="/subscriptions/$subscriptionId"
                  params={{ subscriptionId: subscription.id }}
                  dir="auto"
                  data-testid="subscriptions-row-link"
                >
                  <span data-testid="subscriptions-row-name">{subscriptionName(subscription, t)}</span>
                </RouterLink>
              </TableCell>
              <TableCell>
                <SubscriptionStatusChip subscription={subscription} testId="subscriptions-row-status" />
              </TableCell>
              <TableCell>{dateOrDash(subscription.startDate, lang)}</TableCell>
              <TableCell>{dateOrDash(subscription.endDate, lang)}</TableCell>
              <TableCell>{dateOrDash(subscription.nextPaymentDate, lang)}</TableCell>
              <TableCell>
                <bdi dir="ltr">{subscription.login}</bdi>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * The client's subscriptions (`POST /subscriptions/search`), newest first, with the trial offer on top once it is
 * known whether it leads (docs/adr/0079-say-what-happened-and-keep-what-was-typed.md).
 */
export function SubscriptionsPage() {
  const { t, lang } = useT();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const list = useQuery(subscriptionsListQueryOptions());
  const subscriptions = list.data?.content ?? [];
  const trial = useTrialOfferDecision();
  const shown = trial.decided && (list.data !== undefined || list.isError);

  return (
    <Page title={t('subscriptions.title')}>
      {/* As on /packages: until it is known whether the trial offer leads and the list is in, only the skeleton
          shows; the offer and the list then replace it together, so nothing moves down under an offer. */}
      {shown && <TrialOffer />}
      {list.isError ? (
        isApiError(list.error) && list.error.handled ? null : (
          <Alert severity="error" data-testid="subscriptions-error">
            {errorMessageFor(list.error, lang)}
          </Alert>
        )
      ) : !list.data || !shown ? (
        <Skeleton
          key="skeleton"
          variant="rounded"
          height={240}
          aria-label={t('common.loading')}
          data-testid="subscriptions-skeleton"
        />
      ) : subscriptions.length === 0 ? (
        <EmptyState
          message={t('subscriptions.empty')}
          action={
            <RouterButton to="/packages" variant="contained" data-testid="subscriptions-to-packages">
              {t('subscriptions.toPackages')}
            </RouterButton>
          }
        />
      ) : (
        <>
          {phone ? (
            <SubscriptionCards subscriptions={subscriptions} />
          ) : (
            <SubscriptionsTable subscriptions={subscriptions} />
          )}
          <div>
            <RouterButton to="/packages" variant="outlined" data-testid="subscriptions-to-packages">
              {t('subscriptions.buyAnother')}
            </RouterButton>
          </div>
        </>
      )}
    </Page>
  );
}
