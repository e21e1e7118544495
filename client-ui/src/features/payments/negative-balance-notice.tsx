import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useMe } from '../../lib/api/use-me';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { RouterButton } from '../../lib/ui/router-link';

/**
 * Shown while the client's balance is below zero, which only a staff correction can cause (docs/product.md, Ledger,
 * Negative balance): what happened, where to see it, what it blocks, and the deposit that settles it.
 */
export function NegativeBalanceNotice() {
  const { t, tRich, lang } = useT();
  const { data: me } = useMe();
  // The balance arrives in dollars with at most two decimals; counted in cents, a float's noise cannot make it negative.
  if (!me || Math.round(me.balance * 100) >= 0) return null;
  return (
    <Alert
      severity="warning"
      data-testid="negative-balance-notice"
      action={
        <RouterButton to="/payments/deposit" color="inherit" size="small" data-testid="negative-balance-settle">
          {t('balance.negative.settle')}
        </RouterButton>
      }
      sx={{ alignItems: 'flex-start', '& .MuiAlert-action': { flexShrink: 0 } }}
    >
      <AlertTitle>
        {tRich('balance.negative.title', {
          balance: <bdi dir="ltr">{formatDollars(me.balance, lang)}</bdi>,
        })}
      </AlertTitle>
      {tRich('balance.negative.text', {
        debt: <bdi data-testid="negative-balance-debt">{formatDollars(Math.abs(me.balance), lang)}</bdi>,
      })}
    </Alert>
  );
}
