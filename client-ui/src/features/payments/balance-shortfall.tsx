import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { TOP_UP_PATH } from '../../app/access';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { RouterButton } from '../../lib/ui/router-link';
import { debtMinor, depositNeededMinor, minorToAmount } from '@kupa/proto';

/** How many cents the balance (dollars, as the API sends it) lacks to pay `priceMinor`; 0 when it is enough. */
export function shortfallMinor(priceMinor: number, balance: number): number {
  // Counted in cents, a dollar value's float noise cannot make an exact balance look short.
  return Math.max(0, priceMinor - Math.round(balance * 100));
}

/**
 * What a deposit that buys or renews a package asks (ADR 0058): the price, plus the debt of a balance below zero,
 * which the money pays first. `balance` is in dollars, as the API sends it.
 */
export function depositAsked(priceMinor: number, balance: number): { askedMinor: number; debtMinor: number } {
  const balanceMinor = Math.round(balance * 100);
  return { askedMinor: depositNeededMinor(balanceMinor, priceMinor), debtMinor: debtMinor(balanceMinor) };
}

/** Why a deposit asks more than the price: the debt on the balance it pays first. Nothing without a debt. */
export function DebtIncluded({ debtMinor, testId }: { debtMinor: number; testId: string }) {
  const { tIsolated, lang } = useT();
  if (debtMinor === 0) return null;
  return (
    <Typography variant="body2" data-testid={testId}>
      {tIsolated('deposit.debtIncluded', { debt: formatDollars(minorToAmount(debtMinor), lang) })}
    </Typography>
  );
}

/**
 * The balance is short of a price: by how much, and the way to top it up (today the deposit screen; `TOP_UP_PATH`
 * says where).
 */
export function BalanceShortfall({ missingMinor, testId }: { missingMinor: number; testId: string }) {
  const { t, tRich, lang } = useT();
  return (
    <Alert
      severity="warning"
      data-testid={testId}
      action={
        <RouterButton to={TOP_UP_PATH} color="inherit" size="small" data-testid={`${testId}-top-up`}>
          {t('balance.topUp')}
        </RouterButton>
      }
      sx={{ alignItems: 'flex-start', '& .MuiAlert-action': { flexShrink: 0 } }}
    >
      {tRich('balance.short', {
        missing: <bdi data-testid={`${testId}-missing`}>{formatDollars(minorToAmount(missingMinor), lang)}</bdi>,
      })}
    </Alert>
  );
}
