import { minorToAmount } from '@kupa/proto';
import type { AppConfig } from '../../../platform/config';
import { ApiError } from '../../../platform/http';

/**
 * The amount every top-up of the balance must keep to, whatever brings the money (a crypto invoice or a card
 * checkout, docs/adr/0082-card-top-ups.md): within `CASHIER_DEPOSIT_MIN`…`CASHIER_DEPOSIT_MAX`, or
 * `error.deposit.amount.out.of.range` naming both.
 */
export function assertDepositAmountInRange(
  limits: Pick<AppConfig, 'cashierDepositMinMinor' | 'cashierDepositMaxMinor'>,
  amountMinor: number,
): void {
  const { cashierDepositMinMinor: minMinor, cashierDepositMaxMinor: maxMinor } = limits;
  if (amountMinor < minMinor || amountMinor > maxMinor)
    throw new ApiError('error.deposit.amount.out.of.range', {
      minAmount: minorToAmount(minMinor),
      maxAmount: minorToAmount(maxMinor),
    });
}
