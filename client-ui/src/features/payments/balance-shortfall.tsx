import Alert from '@mui/material/Alert';
import { TOP_UP_PATH } from '../../app/access';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { RouterButton } from '../../lib/ui/router-link';
import { minorToAmount } from '@kupa/proto';

/** How many cents the balance (dollars, as the API sends it) lacks to pay `priceMinor`; 0 when it is enough. */
export function shortfallMinor(priceMinor: number, balance: number): number {
  // Counted in cents, a dollar value's float noise cannot make an exact balance look short.
  return Math.max(0, priceMinor - Math.round(balance * 100));
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
