import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import {
  type AmbassadorBonusTier,
  DEFAULT_AMBASSADOR_BONUS_TIERS,
  DEFAULT_REFERRAL_DISCOUNT_TIERS,
  minorToAmount,
  type ReferralDiscountTier,
} from '@kupa/proto';
import { formatDollars, formatPercent } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';

function usePercent() {
  const { lang } = useT();
  return (percent: number) => formatPercent(percent, lang);
}

/** The tier a count of active referrals reaches, as an index into the table; -1 below the first. */
export function currentTierIndex(activeReferrals: number, tiers: readonly ReferralDiscountTier[]): number {
  let index = -1;
  tiers.forEach((tier, at) => {
    if (activeReferrals >= tier.minActiveReferrals) index = at;
  });
  return index;
}

/**
 * The referral discount tiers (proto's table): how many referred users with an ACTIVE subscription each discount
 * takes, the client's own tier marked, and how many more reach the next one.
 */
export function ReferralTiers({
  activeReferrals,
  tiers = DEFAULT_REFERRAL_DISCOUNT_TIERS,
}: {
  activeReferrals: number;
  tiers?: readonly ReferralDiscountTier[];
}) {
  const { t } = useT();
  const percent = usePercent();
  const current = currentTierIndex(activeReferrals, tiers);
  const next = tiers[current + 1];
  return (
    <Paper variant="outlined" component="section" aria-labelledby="referral-tiers-title" sx={{ p: 3 }}>
      <Typography id="referral-tiers-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('referrals.tiers.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="referrals-next-tier">
        {next
          ? next.minActiveReferrals - activeReferrals === 1
            ? t('referrals.tiers.nextOne', { percent: percent(next.percent) })
            : t('referrals.tiers.next', {
                count: next.minActiveReferrals - activeReferrals,
                percent: percent(next.percent),
              })
          : t('referrals.tiers.top')}
      </Typography>
      <Table size="small" aria-labelledby="referral-tiers-title" data-testid="referral-tiers">
        <TableHead>
          <TableRow>
            <TableCell>{t('referrals.tiers.active')}</TableCell>
            <TableCell>{t('referrals.tiers.discount')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tiers.map((tier, index) => {
            const upper = tiers[index + 1]?.minActiveReferrals;
            const range =
              upper === undefined
                ? t('referrals.tiers.orMore', { min: tier.minActiveReferrals })
                : upper - 1 === tier.minActiveReferrals
                  ? String(tier.minActiveReferrals)
                  : t('referrals.tiers.range', { min: tier.minActiveReferrals, max: upper - 1 });
            const mine = index === current;
            return (
              <TableRow
                key={tier.minActiveReferrals}
                selected={mine}
                data-testid="referral-tier"
                data-current={mine || undefined}
              >
                <TableCell>
                  <bdi>{range}</bdi>
                  {mine && (
                    <Box component="span" sx={visuallyHidden}>
                      {` (${t('referrals.tiers.yours')})`}
                    </Box>
                  )}
                </TableCell>
                <TableCell sx={{ fontWeight: mine ? 700 : undefined }}>
                  <bdi>{percent(tier.percent)}</bdi>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Paper>
  );
}

/** The ambassador's deposit bonus tiers (proto's table): the bonus each deposit size earns. */
export function AmbassadorBonusTiers({
  tiers = DEFAULT_AMBASSADOR_BONUS_TIERS,
}: {
  tiers?: readonly AmbassadorBonusTier[];
}) {
  const { t, lang } = useT();
  const percent = usePercent();
  return (
    <Paper variant="outlined" component="section" aria-labelledby="bonus-tiers-title" sx={{ p: 3 }}>
      <Typography id="bonus-tiers-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('referrals.bonus.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('referrals.bonus.intro')}
      </Typography>
      <Table size="small" aria-labelledby="bonus-tiers-title" data-testid="bonus-tiers">
        <TableHead>
          <TableRow>
            <TableCell>{t('referrals.bonus.deposit')}</TableCell>
            <TableCell>{t('referrals.bonus.percent')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tiers.map((tier) => (
            <TableRow key={tier.minDepositMinor}>
              <TableCell>
                {t('referrals.bonus.from')}{' '}
                <bdi dir="ltr">{formatDollars(minorToAmount(tier.minDepositMinor), lang)}</bdi>
              </TableCell>
              <TableCell>
                <bdi>{percent(tier.percent)}</bdi>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
}
