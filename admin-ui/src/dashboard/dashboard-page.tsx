import { type DashboardQueueGroup, type DashboardSummary, type MonthComparison } from '@kupa/proto';
import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import TrendingFlatIcon from '@mui/icons-material/TrendingFlat';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Alert, Box, Button, Card, CardContent, Chip, Grid, Skeleton, Typography, useTheme } from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Title, useCreatePath, useDataProvider, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { Money } from '../shared/money';
import { mirrorInRtl } from '../shared/mirror-in-rtl';
import { useCommand } from '../shared/use-command';
import { useLang } from '../shared/use-lang';
import { DailyChart } from './daily-chart';
import { formatCount, formatPercentChange, percentChange } from './figures';

type LoadState =
  { status: 'loading' } | { status: 'ready'; summary: DashboardSummary } | { status: 'failed'; message: string };

/** The summary, and a way to read it again (after a queue item is marked seen). */
function useDashboardSummary(): { state: LoadState; reload: () => void } {
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    dataProvider.getDashboard(controller.signal).then(
      (summary) => {
        if (!controller.signal.aborted) setState({ status: 'ready', summary });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [dataProvider, version]);
  return { state, reload: () => setVersion((current) => current + 1) };
}

/** This month against last: the change in percent, or "new" when last month had nothing to compare with. */
function Change({ figures, testId }: { figures: MonthComparison; testId: string }) {
  const translate = useTranslate();
  const lang = useLang();
  const change = percentChange(figures.thisMonth, figures.lastMonth);
  if (change === null) {
    // The label is a short sentence: it wraps inside the chip rather than being cut off in a narrow card.
    return (
      <Chip
        size="small"
        color="info"
        label={translate('kupa.dashboard.new')}
        sx={{ height: 'auto', maxWidth: '100%', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
        data-testid={testId}
      />
    );
  }
  const Icon = change > 0 ? TrendingUpIcon : change < 0 ? TrendingDownIcon : TrendingFlatIcon;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={change > 0 ? 'success' : change < 0 ? 'error' : 'default'}
      icon={<Icon sx={mirrorInRtl} />}
      label={<bdi dir="ltr">{formatPercentChange(change, lang)}</bdi>}
      aria-label={translate('kupa.dashboard.change', { change: formatPercentChange(change, lang) })}
      data-testid={testId}
      data-change={Math.round(change * 10) / 10}
    />
  );
}

interface FigureCardProps {
  label: string;
  value: ReactNode;
  testId: string;
  /** A month figure: last month's value under the big one, and the change. */
  comparison?: { figures: MonthComparison; lastMonth: ReactNode };
}

function FigureCard({ label, value, testId, comparison }: FigureCardProps) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={testId}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" component="h2">
          {label}
        </Typography>
        <Typography variant="h4" component="p" sx={{ my: 1 }} data-testid={`${testId}-value`}>
          {value}
        </Typography>
        {comparison ? (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <Change figures={comparison.figures} testId={`${testId}-change`} />
            <Typography variant="body2" color="text.secondary" data-testid={`${testId}-last`}>
              {translate('kupa.dashboard.last_month')} {comparison.lastMonth}
            </Typography>
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** A queue item opens its record: a subscription for the first two kinds, a payment for the others. */
const QUEUE_RESOURCE: Record<DashboardQueueGroup['kind'], 'subscriptions' | 'payments'> = {
  PROVISIONING_FAILED: 'subscriptions',
  RENEWAL_FAILED: 'subscriptions',
  PAYMENT_REVIEW: 'payments',
  LARGE_DEPOSIT: 'payments',
};

/**
 * What needs a person (docs/product.md, Dashboard): each kind with its count and the latest few, each linking to its
 * record. A kind with nothing waiting says so in one line.
 */
function Queue({ groups, onChanged }: { groups: DashboardQueueGroup[]; onChanged: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { run, pending } = useCommand();
  // A large deposit leaves the queue when someone has looked at it, not only when its week is over.
  const acknowledge = (paymentId: string) =>
    void run(
      async () => {
        await dataProvider.acknowledgeLargeDeposit(paymentId);
        return true;
      },
      { successMessage: 'kupa.dashboard.queue.acknowledged', refresh: false },
    ).then((done) => done && onChanged());
  const lang = useLang();
  const createPath = useCreatePath();
  const time = (iso: string) =>
    new Date(iso).toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'short', timeStyle: 'short' });
  return (
    <Card variant="outlined" sx={{ mt: 2 }} data-testid="dashboard-queue">
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {translate('kupa.dashboard.queue.title')}
        </Typography>
        <Grid container spacing={2}>
          {groups.map((group) => (
            <Grid key={group.kind} size={{ xs: 12, sm: 6, lg: 3 }} data-testid={`dashboard-queue-${group.kind}`}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography variant="body2" component="h3" sx={{ fontWeight: 600 }}>
                  {translate(`kupa.dashboard.queue.${group.kind}`)}
                </Typography>
                <Chip
                  size="small"
                  color={group.count > 0 ? 'warning' : 'default'}
                  label={<bdi dir="ltr">{formatCount(group.count, lang)}</bdi>}
                  data-testid={`dashboard-queue-${group.kind}-count`}
                />
              </Box>
              {group.latest.length === 0 ? (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                  {translate('kupa.dashboard.queue.empty')}
                </Typography>
              ) : (
                <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 0.5 }}>
                  {group.latest.map((item) => (
                    <Box component="li" key={item.id} sx={{ py: 0.25, overflowWrap: 'anywhere' }}>
                      <Link
                        to={createPath({ resource: QUEUE_RESOURCE[group.kind], id: item.id, type: 'show' })}
                        data-testid="dashboard-queue-item"
                      >
                        <bdi dir="ltr">{item.userEmail}</bdi>
                      </Link>
                      <Typography variant="caption" color="text.secondary" component="div">
                        {item.amount === null ? null : (
                          <>
                            <Money amount={item.amount} />
                            {' · '}
                          </>
                        )}
                        <bdi>{time(item.at)}</bdi>
                      </Typography>
                      {group.kind === 'LARGE_DEPOSIT' && (
                        <Button
                          size="small"
                          variant="outlined"
                          disabled={pending}
                          onClick={() => acknowledge(item.id)}
                          sx={{ mt: 0.5 }}
                          data-testid="dashboard-queue-acknowledge"
                        >
                          {translate('kupa.dashboard.queue.acknowledge')}
                        </Button>
                      )}
                    </Box>
                  ))}
                </Box>
              )}
            </Grid>
          ))}
        </Grid>
      </CardContent>
    </Card>
  );
}

/**
 * What the business has given or still owes (docs/product.md, Dashboard): the vouchers sold or given away and not yet
 * redeemed, and this month's discounts by kind.
 */
function GivenAway({ summary }: { summary: DashboardSummary }) {
  const translate = useTranslate();
  const discounts = summary.discountsThisMonth;
  const lines = [
    { key: 'referral', amount: discounts.referral },
    { key: 'promo_code', amount: discounts.promoCode },
    { key: 'voucher_giveaways', amount: discounts.voucherGiveaways },
  ];
  const total = discounts.referral + discounts.promoCode + discounts.voucherGiveaways;
  return (
    <Grid container spacing={2} sx={{ mt: 1 }}>
      <Grid size={{ xs: 12, sm: 6, lg: 4 }}>
        <Card variant="outlined" sx={{ height: '100%' }} data-testid="dashboard-vouchers">
          <CardContent>
            <Typography variant="body2" color="text.secondary" component="h2">
              {translate('kupa.dashboard.voucher_liability')}
            </Typography>
            <Typography variant="h4" component="p" sx={{ my: 1 }} data-testid="dashboard-vouchers-value">
              <Money amount={summary.voucherLiability} />
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate('kupa.dashboard.voucher_liability_hint')}
            </Typography>
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, sm: 6, lg: 8 }}>
        <Card variant="outlined" sx={{ height: '100%' }} data-testid="dashboard-discounts">
          <CardContent>
            <Typography variant="body2" color="text.secondary" component="h2">
              {translate('kupa.dashboard.discounts')}
            </Typography>
            <Typography variant="h4" component="p" sx={{ my: 1 }} data-testid="dashboard-discounts-value">
              <Money amount={Math.round(total * 100) / 100} />
            </Typography>
            <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3, rowGap: 0.5, m: 0 }}>
              {lines.map((line) => (
                <Box key={line.key} sx={{ display: 'flex', gap: 1 }} data-testid={`dashboard-discount-${line.key}`}>
                  <Typography variant="body2" color="text.secondary" component="dt">
                    {translate(`kupa.dashboard.discount_${line.key}`)}
                  </Typography>
                  <Typography variant="body2" component="dd" sx={{ m: 0 }}>
                    <Money amount={line.amount} />
                  </Typography>
                </Box>
              ))}
            </Box>
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}

function Figures({ summary, onChanged }: { summary: DashboardSummary; onChanged: () => void }) {
  const translate = useTranslate();
  const lang = useLang();
  const theme = useTheme();
  const count = (value: number) => <bdi dir="ltr">{formatCount(value, lang)}</bdi>;
  const cards: FigureCardProps[] = [
    {
      label: translate('kupa.dashboard.active_subscriptions'),
      value: count(summary.activeSubscriptions),
      testId: 'dashboard-active',
    },
    {
      label: translate('kupa.dashboard.revenue'),
      value: <Money amount={summary.revenue.thisMonth} />,
      testId: 'dashboard-revenue',
      comparison: { figures: summary.revenue, lastMonth: <Money amount={summary.revenue.lastMonth} /> },
    },
    {
      label: translate('kupa.dashboard.deposits'),
      value: <Money amount={summary.deposits.thisMonth} />,
      testId: 'dashboard-deposits',
      comparison: { figures: summary.deposits, lastMonth: <Money amount={summary.deposits.lastMonth} /> },
    },
    {
      label: translate('kupa.dashboard.new_subscriptions'),
      value: count(summary.newSubscriptions.thisMonth),
      testId: 'dashboard-new',
      comparison: { figures: summary.newSubscriptions, lastMonth: count(summary.newSubscriptions.lastMonth) },
    },
    {
      label: translate('kupa.dashboard.renewals_due'),
      value: count(summary.renewalsDueThisWeek),
      testId: 'dashboard-renewals',
    },
  ];
  return (
    <>
      <Grid container spacing={2}>
        {cards.map((card) => (
          <Grid key={card.testId} size={{ xs: 12, sm: 6, lg: 'grow' }}>
            <FigureCard {...card} />
          </Grid>
        ))}
      </Grid>
      <Queue groups={summary.queue} onChanged={onChanged} />
      <GivenAway summary={summary} />
      <Grid container spacing={2} sx={{ mt: 1 }}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Card variant="outlined">
            <CardContent>
              <DailyChart
                title={translate('kupa.dashboard.daily_revenue')}
                days={summary.daily.map((day) => ({ date: day.date, amount: day.revenue }))}
                lang={lang}
                color={theme.palette.primary.main}
                testId="dashboard-revenue-chart"
              />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <Card variant="outlined">
            <CardContent>
              <DailyChart
                title={translate('kupa.dashboard.daily_deposits')}
                days={summary.daily.map((day) => ({ date: day.date, amount: day.deposits }))}
                lang={lang}
                color={theme.palette.success.main}
                testId="dashboard-deposits-chart"
              />
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </>
  );
}

/**
 * The admin's landing page (docs/product.md, Screens): active subscriptions, revenue and deposits this month against
 * last, new subscriptions, renewals due within a week, and the last 30 days' revenue and deposits. Months and days
 * are UTC calendar periods, as the API counts them. Loaded on its own, after the console's first screen.
 */
export default function DashboardPage() {
  const translate = useTranslate();
  const { state, reload } = useDashboardSummary();
  return (
    <Box sx={{ mt: 2 }} data-testid="dashboard">
      <Title title={translate('ra.page.dashboard')} />
      {state.status === 'loading' ? (
        <Skeleton variant="rounded" height={160} data-testid="dashboard-loading" />
      ) : state.status === 'failed' ? (
        <Alert severity="error" data-testid="dashboard-error">
          {state.message}
        </Alert>
      ) : (
        <Figures summary={state.summary} onChanged={reload} />
      )}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
        {translate('kupa.dashboard.utc_note')}
      </Typography>
    </Box>
  );
}
