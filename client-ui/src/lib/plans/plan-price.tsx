import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import { discountedPriceMinor, minorToAmount, type PlanDurationMonths, type PromoCodeQuote } from '@kupa/proto';
import { formatDollars } from '../format';
import { useT, type MessageKey } from '../i18n/i18n';

/** A package's list price and what the client pays after their referral discount, in cents. */
export interface PlanPricing {
  listMinor: number;
  priceMinor: number;
  discountPercent: number;
  /** The promo code the price was quoted with, when it won over the referral discount (ADR 0088). */
  promoCode?: string;
}

/** The pricing a promo code quote gives, in cents; the quote names which discount applied. */
export function quotedPricing(quote: PromoCodeQuote): PlanPricing {
  return {
    listMinor: Math.round(quote.listPrice * 100),
    priceMinor: Math.round(quote.price * 100),
    discountPercent: quote.discountPercent,
    ...(quote.applied === 'PROMO_CODE' ? { promoCode: quote.code } : {}),
  };
}

/** The price the API will charge: the list price less the client's referral discount, by proto's rounding. */
export function planPricing(price: number, discountPercent: number): PlanPricing {
  const listMinor = Math.round(price * 100);
  return { listMinor, priceMinor: discountedPriceMinor(listMinor, discountPercent), discountPercent };
}

const PERIODS: Readonly<Record<PlanDurationMonths, MessageKey>> = {
  1: 'packages.period.1',
  2: 'packages.period.2',
  3: 'packages.period.3',
  12: 'packages.period.12',
};

export function periodKey(months: number): MessageKey | null {
  return months in PERIODS ? PERIODS[months as PlanDurationMonths] : null;
}

/**
 * The price as the client pays it. With a discount, the list price is struck through beside it, and the discount is a
 * badge ("-10 %"); screen readers hear which number is which, since a strike-through is not read out.
 */
export function PlanPrice({ pricing, months, testId }: { pricing: PlanPricing; months: number; testId: string }) {
  const { t, lang, locale } = useT();
  const discounted =
    (pricing.discountPercent > 0 || pricing.promoCode !== undefined) && pricing.priceMinor < pricing.listMinor;
  const period = periodKey(months);
  const badge = new Intl.NumberFormat(locale, { style: 'percent', signDisplay: 'always' }).format(
    -pricing.discountPercent / 100,
  );
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
      {discounted && (
        <Typography component="s" color="text.secondary" data-testid={`${testId}-list`}>
          <Box component="span" sx={visuallyHidden}>
            {t('packages.listPrice')}:{' '}
          </Box>
          <bdi dir="ltr">{formatDollars(minorToAmount(pricing.listMinor), lang)}</bdi>
        </Typography>
      )}
      <Typography variant="h5" component="p" sx={{ fontWeight: 700 }} data-testid={testId}>
        {discounted && (
          <Box component="span" sx={visuallyHidden}>
            {t('packages.yourPrice')}:{' '}
          </Box>
        )}
        <bdi dir="ltr">{formatDollars(minorToAmount(pricing.priceMinor), lang)}</bdi>
      </Typography>
      {period && (
        <Typography color="text.secondary" component="span">
          {t(period)}
        </Typography>
      )}
      {discounted && pricing.promoCode !== undefined && (
        <Chip
          size="small"
          color="success"
          label={<bdi dir="ltr">{pricing.promoCode}</bdi>}
          title={t('promo.label')}
          data-testid={`${testId}-code`}
        />
      )}
      {discounted && pricing.promoCode === undefined && (
        <Chip
          size="small"
          color="success"
          label={<bdi>{badge}</bdi>}
          title={t('packages.discountApplied', { percent: pricing.discountPercent })}
          data-testid={`${testId}-discount`}
        />
      )}
    </Stack>
  );
}
