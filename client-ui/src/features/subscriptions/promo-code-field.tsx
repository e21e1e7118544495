import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type PromoCodeQuote } from '@kupa/proto';
import { isApiError } from '../../lib/api/api-error';
import { promoCodesApi } from '../../lib/api/endpoints';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { inputTestId } from '../../lib/ui/test-ids';

/** What the code field asks a price for: a package to buy or a subscription to renew. */
export type PromoCodeTarget = { planId: string } | { subscriptionId: string };

/**
 * The promo code field of the buy and renew dialogs (docs/adr/0088-promo-codes.md): "Apply" asks the API for the price
 * with the code (`GET /promo-codes/quote`), which spends nothing, and hands the quote up so the dialog shows the new
 * price before the client confirms. A refusal is told in the catalogue's words; the larger of the code and the
 * referral discount applies, and the field says when the referral discount won.
 */
export function PromoCodeField({
  target,
  quote,
  onQuote,
  testId,
}: {
  target: PromoCodeTarget;
  quote: PromoCodeQuote | null;
  onQuote: (quote: PromoCodeQuote | null) => void;
  testId: string;
}) {
  const { t, tIsolated, lang, apiErrorMessage } = useT();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ask = useMutation({
    mutationFn: (entered: string) => promoCodesApi.quote({ code: entered, ...target }),
    meta: { silentError: true },
    onSuccess: (answer) => {
      setError(null);
      // The code as the API knows it (capitals), so the field, the price's chip and the result agree.
      setCode(answer.code);
      onQuote(answer);
    },
    onError: (failure) => {
      onQuote(null);
      setError(isApiError(failure) ? apiErrorMessage(failure.body) : apiErrorMessage(null));
    },
  });
  const apply = () => {
    if (code.trim() !== '') ask.mutate(code.trim());
  };
  const remove = () => {
    setCode('');
    setError(null);
    onQuote(null);
  };

  return (
    <Stack spacing={1} data-testid={testId}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label={t('promo.label')}
          size="small"
          value={code}
          disabled={quote !== null}
          onChange={(event) => {
            setCode(event.target.value);
            setError(null);
          }}
          onKeyDown={(event) => {
            // Enter applies the code rather than submitting the dialog's form.
            if (event.key === 'Enter') {
              event.preventDefault();
              apply();
            }
          }}
          error={error !== null}
          helperText={error ?? undefined}
          slotProps={{ htmlInput: { ...inputTestId(`${testId}-input`), dir: 'ltr', autoCapitalize: 'characters' } }}
          sx={{ flex: 1 }}
        />
        {quote === null ? (
          <Button
            variant="outlined"
            onClick={apply}
            disabled={ask.isPending || code.trim() === ''}
            data-testid={`${testId}-apply`}
          >
            {t('promo.apply')}
          </Button>
        ) : (
          <Button variant="text" onClick={remove} data-testid={`${testId}-remove`}>
            {t('promo.remove')}
          </Button>
        )}
      </Stack>
      {quote !== null && (
        <Alert severity={quote.applied === 'PROMO_CODE' ? 'success' : 'info'} data-testid={`${testId}-result`}>
          {quote.applied === 'PROMO_CODE'
            ? tIsolated('promo.applied', { code: quote.code, discount: formatDollars(quote.promoDiscount, lang) })
            : t('promo.referralWins')}
        </Alert>
      )}
    </Stack>
  );
}
