import Alert from '@mui/material/Alert';
import { ambassadorBonusMinor, ambassadorBonusPercent, minorToAmount } from '@kupa/proto';
import { useMe } from '../../../lib/api/use-me';
import { useKnownRewardTiers } from '../../../lib/api/use-support-contacts';
import { formatDollars, formatPercent } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { parseAmountInput } from '../amount-input';

/**
 * What the amount typed would earn an ambassador (docs/product.md, Referrals and bonuses): proto's
 * `ambassadorBonusMinor` over the tiers the server books with (`GET /dictionaries`), the same rule the ledger's
 * `earnedAmbassadorBonus` applies when the money arrives. Below the lowest tier it says from which amount a bonus
 * starts. Nothing for a client, for an amount not yet readable, or before the tiers are known.
 */
export function AmbassadorBonusPreview({ amount }: { amount: string }) {
  const { t, tRich, lang } = useT();
  // Amounts keep the one left-to-right order of every amount on screen (proto's money format).
  const ltr = (text: string) => <bdi dir="ltr">{text}</bdi>;
  const { data: me } = useMe();
  const tiers = useKnownRewardTiers();
  if (me?.role !== 'AMBASSADOR' || !tiers || tiers.ambassadorBonus.length === 0) return null;
  const parsed = parseAmountInput(amount);
  if (!parsed.ok) return null;
  const bonusMinor = ambassadorBonusMinor(parsed.amountMinor, tiers.ambassadorBonus);
  if (bonusMinor <= 0) {
    const lowest = Math.min(...tiers.ambassadorBonus.map((tier) => tier.minDepositMinor));
    return (
      <Alert severity="info" data-testid="deposit-bonus-preview" role="status">
        {tRich('deposit.bonus.below', { min: ltr(formatDollars(minorToAmount(lowest), lang)) })}
      </Alert>
    );
  }
  return (
    <Alert severity="success" data-testid="deposit-bonus-preview" role="status">
      {tRich('deposit.bonus.earns', {
        bonus: ltr(formatDollars(minorToAmount(bonusMinor), lang)),
        percent: ltr(formatPercent(ambassadorBonusPercent(parsed.amountMinor, tiers.ambassadorBonus), lang)),
      })}{' '}
      {t('deposit.bonus.when')}
    </Alert>
  );
}
