import { queryOptions, useQuery } from '@tanstack/react-query';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type CryptoMethod, clientEnumLabel } from '@kupa/proto';
import { paymentsApi } from '../../lib/api/endpoints';
import { useT } from '../../lib/i18n/i18n';
import { inputTestId } from '../../lib/ui/test-ids';

/** The cashier's deposit limits and coins (`GET /payments/crypto/options`); they change only with a restart. */
export function cryptoOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['payments', 'crypto', 'options'] as const,
    queryFn: paymentsApi.cryptoOptions,
    staleTime: 5 * 60_000,
  });
}

export const DEFAULT_COIN: CryptoMethod = 'CRYPTO_USDT_TRC20';

/** The coin a crypto payment is made in, among those the cashier offers. */
export function CoinSelect({
  value,
  onChange,
  testId,
}: {
  value: CryptoMethod;
  onChange: (coin: CryptoMethod) => void;
  testId: string;
}) {
  const { t, lang } = useT();
  const options = useQuery(cryptoOptionsQueryOptions());
  const methods = options.data?.methods ?? [value];
  return (
    <TextField
      select
      label={t('deposit.crypto.coin')}
      value={methods.includes(value) ? value : ''}
      onChange={(event) => onChange(event.target.value as CryptoMethod)}
      sx={{ minWidth: 220 }}
      slotProps={{ htmlInput: inputTestId(testId) }}
    >
      {methods.map((method) => (
        <MenuItem key={method} value={method}>
          {clientEnumLabel('paymentMethod', method, lang)}
        </MenuItem>
      ))}
    </TextField>
  );
}
