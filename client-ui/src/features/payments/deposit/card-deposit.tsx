import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import { clientMessageForApiError, minorToAmount } from '@kupa/proto';
import { fieldErrorsOf, isApiError } from '../../../lib/api/api-error';
import { paymentsApi } from '../../../lib/api/endpoints';
import { notifyError } from '../../../lib/api/query-client';
import { browser } from '../../../lib/browser';
import { formatDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';
import { parseAmountInput } from '../amount-input';
import { DollarAmountField } from '../dollar-amount-field';
import { cryptoOptionsQueryOptions } from '../crypto-options';
import { AmbassadorBonusPreview } from './bonus-preview';
import { ReadOnlyAction } from '../../../lib/view-as/read-only-action';

interface CardDepositProps {
  /** The amount typed, kept by the deposit screen so that switching the method does not lose it. */
  amount: string;
  onAmountChange: (amount: string) => void;
  /** Whether the crypto cashier answers, and with it the deposit limits both methods share. */
  limitsKnown: boolean;
}

/**
 * The card half of the deposit screen (docs/adr/0082-card-top-ups.md): an amount, then the card provider's hosted
 * checkout. The provider sends the client back to `/paymentSuccess` or `/paymentFailed`, which read the deposit.
 */
export function CardDeposit({ amount, onAmountChange: setAmount, limitsKnown }: CardDepositProps) {
  const { t, lang } = useT();
  const [amountError, setAmountError] = useState<string>();
  // The limits are the crypto deposit's (one set for every top-up); without a cashier the server still names them.
  const options = useQuery({ ...cryptoOptionsQueryOptions(), enabled: limitsKnown });
  const open = useMutation({
    mutationFn: paymentsApi.cardDeposit,
    onSuccess: (answer) => browser.assign(answer.url),
    onError: (error) => {
      const field = fieldErrorsOf(error, lang).amount;
      if (field) setAmountError(field);
      else if (isApiError(error) && error.body.error === 'error.deposit.amount.out.of.range')
        setAmountError(clientMessageForApiError(error.body, lang));
      else notifyError(error);
    },
  });
  const limitsText = options.data
    ? t('deposit.crypto.limits', {
        min: formatDollars(options.data.minAmount, lang),
        max: formatDollars(options.data.maxAmount, lang),
      })
    : undefined;

  const submit = () => {
    const parsed = parseAmountInput(amount);
    if (!parsed.ok) {
      setAmountError(t('deposit.amount'));
      return;
    }
    const value = minorToAmount(parsed.amountMinor);
    if (options.data && (value < options.data.minAmount || value > options.data.maxAmount)) {
      setAmountError(limitsText);
      return;
    }
    open.mutate({ amount: value });
  };

  return (
    <Stack spacing={2} data-testid="card-deposit-form">
      <DollarAmountField
        label={t('deposit.amount')}
        value={amount}
        onChange={(text) => {
          setAmount(text);
          setAmountError(undefined);
        }}
        error={amountError}
        hint={limitsText}
        testId="card-amount"
      />
      <AmbassadorBonusPreview amount={amount} />
      <Typography color="text.secondary">{t('deposit.card.explain')}</Typography>
      <div>
        <ReadOnlyAction>
          <Button
            variant="contained"
            onClick={submit}
            disabled={open.isPending || open.isSuccess}
            startIcon={<CreditCardIcon />}
            data-testid="card-pay"
          >
            {t('deposit.card.pay')}
          </Button>
        </ReadOnlyAction>
      </div>
    </Stack>
  );
}
