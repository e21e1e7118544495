import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Plan } from '@kupa/proto';
import { TOP_UP_PATH } from '../../app/access';
import { errorMessageFor, isApiError } from '../../lib/api/api-error';
import { ME_QUERY_KEY, useMe } from '../../lib/api/use-me';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { EmptyState, Page } from '../../lib/ui/page';
import { RouterButton, RouterLink } from '../../lib/ui/router-link';
import { TrialOffer, useTrialOfferDecision } from '../subscriptions/trial-offer';
import { BuyDialog } from './buy-dialog';
import { PlanCard } from './plan-card';
import { planPricing } from '../../lib/plans/plan-price';
import { activePlansQueryOptions } from '../../lib/plans/plans-query';

/** The client's balance and referral discount above the packages: what they can spend and what they save. */
function BuyingPower() {
  const { t, tIsolated, lang } = useT();
  const { data: me } = useMe();
  if (!me) return <Skeleton variant="rounded" height={56} />;
  const discount = me.referrals.discountPercent;
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Stack spacing={0.5}>
          <Typography data-testid="packages-balance">
            {tIsolated('packages.balance', { balance: formatDollars(me.balance, lang) })}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="packages-discount">
            {discount > 0 ? (
              t('packages.discountApplied', { percent: discount })
            ) : (
              <>
                {t('packages.noDiscount')} <RouterLink to="/referrals">{t('packages.toReferrals')}</RouterLink>
              </>
            )}
          </Typography>
        </Stack>
        <RouterButton to={TOP_UP_PATH} variant="outlined" data-testid="packages-top-up" sx={{ flexShrink: 0 }}>
          {t('balance.topUp')}
        </RouterButton>
      </Stack>
    </Paper>
  );
}

/**
 * The packages on sale (`POST /payment-plans/search`, ACTIVE only for a client) as cards, each priced with the
 * client's referral discount and bought with the balance; the trial offer leads for a user who may still take it.
 */
export function PackagesPage() {
  const { t, lang } = useT();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const plans = useQuery(activePlansQueryOptions());
  const [buying, setBuying] = useState<Plan | null>(null);
  const discount = me?.referrals.discountPercent ?? 0;
  const trial = useTrialOfferDecision();
  const shown = trial.decided && (plans.data !== undefined || plans.isError);

  const openBuy = (plan: Plan) => {
    // The balance decides whether the purchase can go ahead; read it fresh as the dialog opens.
    void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    setBuying(plan);
  };

  return (
    <Page title={t('packages.title')}>
      {/* Until it is known whether the trial offer leads and the packages are in, the page shows only the skeleton of
          what follows; the offer, the buying power and the list then replace it together, so nothing already shown
          moves (an offer shown first would push the skeleton down under it). */}
      {shown && <TrialOffer />}
      {shown && <BuyingPower />}
      {plans.isError ? (
        isApiError(plans.error) && plans.error.handled ? null : (
          <Alert severity="error" data-testid="packages-error">
            {errorMessageFor(plans.error, lang)}
          </Alert>
        )
      ) : !plans.data || !shown ? (
        // Keyed apart from the list: reused as the list's container, this very node would be the one seen to move
        // down when the offer arrives above it.
        <Grid key="skeleton" container spacing={2} aria-busy data-testid="plans-skeleton">
          {[0, 1, 2].map((index) => (
            <Grid key={index} size={{ xs: 12, sm: 6, lg: 4 }}>
              <Skeleton variant="rounded" height={320} />
            </Grid>
          ))}
        </Grid>
      ) : plans.data.content.length === 0 ? (
        <EmptyState message={t('packages.empty')} />
      ) : (
        <Grid key="plans" container spacing={2} data-testid="plans">
          {plans.data.content.map((plan) => (
            <Grid key={plan.id} size={{ xs: 12, sm: 6, lg: 4 }}>
              <PlanCard plan={plan} pricing={planPricing(plan.price, discount)} onBuy={() => openBuy(plan)} />
            </Grid>
          ))}
        </Grid>
      )}
      <BuyDialog plan={buying} pricing={planPricing(buying?.price ?? 0, discount)} onClose={() => setBuying(null)} />
    </Page>
  );
}
