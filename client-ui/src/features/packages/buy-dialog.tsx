import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type CryptoMethod, minorToAmount, type Plan, planTextIn, type PromoCodeQuote } from '@kupa/proto';
import { browser } from '../../lib/browser';
import { paymentsApi, subscriptionsApi } from '../../lib/api/endpoints';
import { ME_QUERY_KEY, useMe } from '../../lib/api/use-me';
import { useCardCheckoutAvailable, useCryptoDepositAvailable } from '../../lib/api/use-support-contacts';
import { formatDollars } from '../../lib/format';
import { useT, type MessageKey } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { payOptions, type PayWith } from '../../lib/plans/pay-options';
import { PlanPrice, type PlanPricing, quotedPricing } from '../../lib/plans/plan-price';
import { inputTestId } from '../../lib/ui/test-ids';
import { BalanceShortfall, DebtIncluded, depositAsked, shortfallMinor } from '../payments/balance-shortfall';
import { CoinSelect, DEFAULT_COIN } from '../payments/crypto-options';
import { PAYMENTS_QUERY_KEY } from '../payments/payments-query';
import { CredentialsDialog } from '../subscriptions/credentials-dialog';
import type { CredentialsField, CredentialsValues } from '../subscriptions/credentials-form';
import {
  afterEdit,
  credentialsRefusal,
  NO_REFUSAL,
  type CredentialsRefusal,
} from '../subscriptions/subscription-errors';
import { SUBSCRIPTIONS_QUERY_KEY } from '../subscriptions/subscriptions-query';
import { PromoCodeField } from '../subscriptions/promo-code-field';

/** The radio labels of the ways to pay. */
const PAY_WITH_LABELS: Record<PayWith, MessageKey> = {
  balance: 'buy.payWith.balance',
  crypto: 'buy.payWith.crypto',
  card: 'buy.payWith.card',
};

/**
 * Buys a package: the login and password the streaming service account opens with, checked first with proto's rules,
 * and the way to pay. With the balance (`POST /subscriptions/balance/payment-plans/{id}`) a success opens the new
 * subscription; a short balance says by how much and offers a crypto deposit that buys the package once the money
 * arrives (`POST /payments/crypto/deposit-and-buy-subscription/payment-plans/{id}`, then the deposit's invoice on the
 * deposit screen); a card (`POST /stripe/create-checkout-session/payment-plans/{id}`) leaves for the provider's page,
 * which sends the client back to `/paymentSuccess` or `/paymentFailed`.
 */
export function BuyDialog({
  plan,
  pricing: listedPricing,
  onClose,
}: {
  plan: Plan | null;
  pricing: PlanPricing;
  onClose: () => void;
}) {
  const { t, tIsolated, lang } = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const [refusal, setRefusal] = useState<CredentialsRefusal>(NO_REFUSAL);
  const cardAvailable = useCardCheckoutAvailable();
  const cryptoAvailable = useCryptoDepositAvailable();
  const [chosen, setChosen] = useState<PayWith | null>(null);
  const [coin, setCoin] = useState<CryptoMethod>(DEFAULT_COIN);
  // A promo code's quote (ADR 0088): the price shown, and paid by any way, follows it.
  const [promoQuote, setPromoQuote] = useState<PromoCodeQuote | null>(null);
  // Sent only when the code won over the referral discount: a code that does not is not spent.
  const promoCode = promoQuote?.applied === 'PROMO_CODE' ? { promoCode: promoQuote.code } : {};

  const buy = useMutation({
    mutationFn: ({ planId, values }: { planId: string; values: CredentialsValues }) =>
      subscriptionsApi.buyWithBalance(planId, { login: values.login, password: values.password, ...promoCode }),
    meta: { silentError: true },
    onSuccess: async (subscription) => {
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('buy.done') });
      // The balance, the payments and the subscriptions all changed.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY }),
      ]);
      onClose();
      await navigate({ to: '/subscriptions/$subscriptionId', params: { subscriptionId: subscription.id } });
    },
    onError: (error) => {
      const next = credentialsRefusal(error, lang);
      setRefusal(next);
      // The balance shown was out of date; the refusal is the moment to fetch it again and show what is missing.
      if (next.insufficientBalance) void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });

  const depositAndBuy = useMutation({
    mutationFn: ({ planId, values }: { planId: string; values: CredentialsValues }) =>
      paymentsApi.cryptoDepositAndBuy(planId, {
        method: coin,
        login: values.login,
        password: values.password,
        ...promoCode,
      }),
    meta: { silentError: true },
    onSuccess: async (answer) => {
      // The app-wide watch of pending deposits picks the new one up; the deposit screen shows its invoice.
      void queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY });
      onClose();
      await navigate({ to: '/payments/deposit', search: { paymentId: answer.paymentId } });
    },
    onError: (error) => setRefusal(credentialsRefusal(error, lang)),
  });

  const card = useMutation({
    mutationFn: ({ planId, values }: { planId: string; values: CredentialsValues }) =>
      paymentsApi.cardCheckout(planId, { login: values.login, password: values.password, ...promoCode }),
    meta: { silentError: true },
    onSuccess: (answer) => browser.assign(answer.url),
    onError: (error) => setRefusal(credentialsRefusal(error, lang)),
  });

  // The code's price applies to every way of paying: a deposit or a checkout holds its use until the money arrives.
  const pricing = promoQuote !== null ? quotedPricing(promoQuote) : listedPricing;
  const missingMinor = me ? shortfallMinor(pricing.priceMinor, me.balance) : 0;
  const options: PayWith[] = plan
    ? payOptions(plan, missingMinor > 0, { card: cardAvailable, crypto: cryptoAvailable })
    : ['balance'];
  // The balance when it is enough, else the first other way; what the client picked while it is still offered.
  const payWith: PayWith =
    chosen !== null && options.includes(chosen)
      ? chosen
      : missingMinor > 0 && options.length > 1
        ? options[1]
        : 'balance';
  const pending = buy.isPending || depositAndBuy.isPending || card.isPending || card.isSuccess;

  const close = () => {
    setRefusal(NO_REFUSAL);
    setChosen(null);
    setPromoQuote(null);
    buy.reset();
    depositAndBuy.reset();
    card.reset();
    onClose();
  };

  // A deposit or a card asks the price plus any debt on the balance, which the money pays first.
  const asked = depositAsked(pricing.priceMinor, me?.balance ?? 0);
  const askedText = formatDollars(minorToAmount(asked.askedMinor), lang);
  const footer =
    payWith === 'balance' && missingMinor > 0 ? (
      <BalanceShortfall missingMinor={missingMinor} testId="buy-shortfall" />
    ) : refusal.insufficientBalance || refusal.message ? (
      <Alert severity="error" data-testid="buy-error">
        {refusal.message ?? t('buy.balanceChanged')}
      </Alert>
    ) : null;

  return (
    <CredentialsDialog
      open={plan !== null}
      title={t('buy.title')}
      fields="both"
      submitLabel={
        payWith === 'crypto' ? t('buy.crypto.submit') : payWith === 'card' ? t('buy.card.submit') : t('buy.submit')
      }
      pending={pending}
      testId="buy"
      serverErrors={refusal.fields}
      submitDisabled={payWith === 'balance' && missingMinor > 0}
      footer={footer}
      onEdit={(field: CredentialsField) => setRefusal((current) => afterEdit(current, field))}
      onSubmit={(values) => {
        if (!plan) return;
        setRefusal(NO_REFUSAL);
        const request = { planId: plan.id, values };
        if (payWith === 'crypto') depositAndBuy.mutate(request);
        else if (payWith === 'card') card.mutate(request);
        else buy.mutate(request);
      }}
      onClose={close}
    >
      {plan && (
        <Paper variant="outlined" sx={{ p: 2 }} data-testid="buy-summary">
          <Stack spacing={1}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }} dir="auto">
              {planTextIn(plan, lang).name}
            </Typography>
            <PlanPrice pricing={pricing} months={plan.durationInMonths} testId="buy-price" />
            {me && (
              <Typography variant="body2" color="text.secondary" data-testid="buy-balance">
                {tIsolated('buy.balance', { balance: formatDollars(me.balance, lang) })}
                {missingMinor === 0 && (
                  <>
                    {' · '}
                    {tIsolated('buy.balanceAfter', {
                      balance: formatDollars(minorToAmount(Math.round(me.balance * 100) - pricing.priceMinor), lang),
                    })}
                  </>
                )}
              </Typography>
            )}
          </Stack>
        </Paper>
      )}
      {options.length > 1 && (
        <FormControl>
          <FormLabel id="buy-pay-with-label">{t('buy.payWith')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby="buy-pay-with-label"
            value={payWith}
            onChange={(event) => {
              setChosen(event.target.value as PayWith);
              setRefusal(NO_REFUSAL);
            }}
          >
            {options.map((option) => (
              <FormControlLabel
                key={option}
                value={option}
                control={<Radio slotProps={{ input: inputTestId(`buy-pay-${option}`) }} />}
                label={t(PAY_WITH_LABELS[option])}
              />
            ))}
          </RadioGroup>
        </FormControl>
      )}
      {payWith === 'crypto' && (
        <Stack spacing={1.5} data-testid="buy-crypto">
          <Typography variant="body2">{tIsolated('buy.crypto.explain', { price: askedText })}</Typography>
          <DebtIncluded debtMinor={asked.debtMinor} testId="buy-crypto-debt" />
          <CoinSelect value={coin} onChange={setCoin} testId="buy-coin" />
        </Stack>
      )}
      {payWith === 'card' && (
        <Stack spacing={1.5} data-testid="buy-card">
          <Typography variant="body2">{tIsolated('buy.card.explain', { price: askedText })}</Typography>
          <DebtIncluded debtMinor={asked.debtMinor} testId="buy-card-debt" />
        </Stack>
      )}
      {plan && (
        <PromoCodeField target={{ planId: plan.id }} quote={promoQuote} onQuote={setPromoQuote} testId="buy-promo" />
      )}
      <Typography variant="body2" color="text.secondary">
        {t('buy.credentialsIntro')}
      </Typography>
    </CredentialsDialog>
  );
}
