import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  type CryptoMethod,
  minorToAmount,
  planTextIn,
  type PromoCodeQuote,
  renewalOpensAfter,
  renewedEndDate,
  renewsAutomatically,
  resumable,
  type Subscription,
} from '@kupa/proto';
import { isApiError } from '../../../lib/api/api-error';
import { paymentsApi, subscriptionsApi } from '../../../lib/api/endpoints';
import { ME_QUERY_KEY, useMe } from '../../../lib/api/use-me';
import { useCryptoDepositAvailable } from '../../../lib/api/use-support-contacts';
import { formatDate, formatDateTime, formatDollars } from '../../../lib/format';
import { type MessageKey, useT } from '../../../lib/i18n/i18n';
import { renewalPayOptions, renewalPayWith, type RenewPayWith } from '../../../lib/plans/pay-options';
import { PlanPrice, planPricing, quotedPricing } from '../../../lib/plans/plan-price';
import { activePlansQueryOptions } from '../../../lib/plans/plans-query';
import { showToast } from '../../../lib/toast/toast-store';
import { ConfirmDialog } from '../../../lib/ui/confirm-dialog';
import { inputTestId } from '../../../lib/ui/test-ids';
import { BalanceShortfall, DebtIncluded, depositAsked, shortfallMinor } from '../../payments/balance-shortfall';
import { CoinSelect, DEFAULT_COIN } from '../../payments/crypto-options';
import { PAYMENTS_QUERY_KEY } from '../../payments/payments-query';
import { CredentialsDialog } from '../credentials-dialog';
import type { CredentialsField } from '../credentials-form';
import { afterEdit, credentialsRefusal, NO_REFUSAL, type CredentialsRefusal } from '../subscription-errors';
import { PromoCodeField } from '../promo-code-field';
import { isLive, isTrial, SUBSCRIPTIONS_QUERY_KEY } from '../subscriptions-query';
import { ReadOnlyAction } from '../../../lib/view-as/read-only-action';

type Action = 'login' | 'password' | 'cancel' | 'renew' | 'deactivate' | 'resume';

const RENEW_PAY_WITH_LABELS: Record<RenewPayWith, MessageKey> = {
  balance: 'buy.payWith.balance',
  crypto: 'buy.payWith.crypto',
};

/**
 * Which actions a subscription offers its owner, by the rules of docs/product.md (Subscriptions). `now` matters to
 * resuming, which is open only before the end date.
 */
export function availableActions(subscription: Subscription, now: Date): Record<Action, boolean> {
  const trial = isTrial(subscription);
  const live = isLive(subscription);
  const running = subscription.status === 'ACTIVE' && !subscription.cancelAtPeriodEnd;
  return {
    // A trial keeps the login it started with; an ended subscription has no account to change.
    login: live && !trial,
    password: live,
    // A trial cannot be cancelled; a cancelled one already ends at its end date.
    cancel: !trial && running,
    // Renewing extends the period from max(now, end); a cancelled one offers resuming instead, and an ended one has
    // no account left to extend (the API answers error.subscription.ended: a new package is bought). One in its
    // grace window is renewed from the payment and brings its paused account back (ADR 0081).
    renew:
      !trial &&
      subscription.paymentPlan !== null &&
      !subscription.cancelAtPeriodEnd &&
      ['ACTIVE', 'UNSUBSCRIBED', 'GRACE'].includes(subscription.status),
    deactivate: !trial && running && subscription.isRecurrent && subscription.paymentPlan !== null,
    // A cancellation can be withdrawn until the end date (ADR 0076).
    resume: !trial && resumable(subscription, now),
  };
}

/** The owner's actions on one subscription, each behind its own dialog. */
export function SubscriptionActions({ subscription }: { subscription: Subscription }) {
  const { t, tIsolated, lang, errorMessage } = useT();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const [open, setOpen] = useState<Action | null>(null);
  const [refusal, setRefusal] = useState<CredentialsRefusal>(NO_REFUSAL);
  const [coin, setCoin] = useState<CryptoMethod>(DEFAULT_COIN);
  const [chosenPayWith, setChosenPayWith] = useState<RenewPayWith | null>(null);
  // A promo code's quote for this renewal (ADR 0088): the price shown, and paid from the balance or by a deposit,
  // follows it. Sent only when the code won over the referral discount: a code that does not is not spent.
  const [promoQuote, setPromoQuote] = useState<PromoCodeQuote | null>(null);
  const promoCode = promoQuote?.applied === 'PROMO_CODE' ? { promoCode: promoQuote.code } : {};
  const navigate = useNavigate();
  // Read once per render: what is offered and why not agree within one screen.
  const now = new Date();
  const actions = availableActions(subscription, now);
  const plans = useQuery({ ...activePlansQueryOptions(), enabled: actions.renew });
  const plan = plans.data?.content.find((candidate) => candidate.id === subscription.paymentPlan?.planId) ?? null;
  const pricing =
    promoQuote !== null ? quotedPricing(promoQuote) : planPricing(plan?.price ?? 0, me?.referrals.discountPercent ?? 0);
  const missingMinor = me && plan ? shortfallMinor(pricing.priceMinor, me.balance) : 0;
  // Renewing by a crypto deposit is open at any time where the deployment has a crypto cashier, whatever the balance.
  const cryptoAvailable = useCryptoDepositAvailable();
  const renewOptions = renewalPayOptions({ crypto: cryptoAvailable && plan !== null });
  const renewCryptoOffered = renewOptions.includes('crypto');
  const payWith = renewalPayWith(renewOptions, missingMinor > 0, chosenPayWith);
  const renewByCrypto = payWith === 'crypto';
  // A deposit asks the price less the discount plus any debt on the balance, which the money pays first; the API
  // refuses the deposit if renewing now needs another amount (error.renewal.amount.changed).
  const asked = depositAsked(pricing.priceMinor, me?.balance ?? 0);
  const endText = subscription.endDate ? formatDate(subscription.endDate, lang) : null;
  // Why renewing cannot be done now, told before anything is sent (ADR 0076): paid a full period ahead already (the
  // API's error.subscription.already.renewed), or a short balance with no crypto cashier to make up the difference.
  const renewOpensAfter = actions.renew ? renewalOpensAfter(subscription, now) : null;
  const shortWithoutDeposit = plan !== null && missingMinor > 0 && !renewCryptoOffered;
  const renewBlocked = renewOpensAfter !== null || shortWithoutDeposit;
  const missingText = formatDollars(minorToAmount(missingMinor), lang);
  const renewReason =
    renewOpensAfter !== null
      ? tIsolated('subscription.renewOpensAfter', { date: formatDateTime(renewOpensAfter.toISOString(), lang) })
      : shortWithoutDeposit
        ? tIsolated('subscription.renewNeedsTopUp', { amount: missingText })
        : plan !== null && missingMinor > 0
          ? tIsolated('subscription.renewNeedsDeposit', { amount: missingText })
          : null;
  const newEndText = formatDate(renewedEndDate(subscription, now).toISOString(), lang);

  const close = () => {
    setOpen(null);
    setRefusal(NO_REFUSAL);
    setChosenPayWith(null);
    setPromoQuote(null);
  };
  const done = async (message: string, moneyMoved = false) => {
    showToast({ severity: 'success', title: t('toast.successTitle'), message });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY }),
      ...(moneyMoved
        ? [
            queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
            queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY }),
          ]
        : []),
    ]);
    close();
  };
  const refuse = (error: unknown) => setRefusal(credentialsRefusal(error, lang));
  const clearField = (field: CredentialsField) => setRefusal((current) => afterEdit(current, field));

  const changeLogin = useMutation({
    mutationFn: (login: string) => subscriptionsApi.changeLogin(subscription.id, { login }),
    meta: { silentError: true },
    onSuccess: () => done(t('subscription.loginChanged')),
    onError: refuse,
  });
  const changePassword = useMutation({
    mutationFn: (password: string) => subscriptionsApi.changePassword(subscription.id, { password }),
    meta: { silentError: true },
    onSuccess: () => done(t('subscription.passwordChanged')),
    onError: refuse,
  });
  const cancel = useMutation({
    mutationFn: () => subscriptionsApi.cancel(subscription.id),
    meta: { silentError: true },
    onSuccess: () => done(t('subscription.cancelled')),
    onError: refuse,
  });
  const renew = useMutation({
    mutationFn: () => subscriptionsApi.renewWithBalance({ subscriptionId: subscription.id, ...promoCode }),
    meta: { silentError: true },
    onSuccess: () => done(t('subscription.renewed'), true),
    onError: (error) => {
      refuse(error);
      if (isApiError(error) && error.code === 'error.insufficient.balance')
        void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });
  // A crypto deposit of exactly the amount shown, which renews the subscription once the money arrives.
  const depositAndRenew = useMutation({
    mutationFn: (amountMinor: number) =>
      paymentsApi.cryptoDepositAndRenew({
        subscriptionId: subscription.id,
        method: coin,
        amount: minorToAmount(amountMinor),
        ...promoCode,
      }),
    meta: { silentError: true },
    onSuccess: async (answer) => {
      void queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY });
      close();
      await navigate({ to: '/payments/deposit', search: { paymentId: answer.paymentId } });
    },
    onError: (error) => {
      refuse(error);
      // The discount or the balance changed since the dialog opened: show the amount renewing asks now.
      if (isApiError(error) && error.code === 'error.renewal.amount.changed')
        void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });
  const resume = useMutation({
    mutationFn: () => subscriptionsApi.resume(subscription.id),
    meta: { silentError: true },
    onSuccess: () => done(t('subscription.resumed')),
    onError: refuse,
  });
  const deactivate = useMutation({
    mutationFn: (planId: string) => subscriptionsApi.deactivateRecurrent(planId),
    meta: { silentError: true },
    onSuccess: () => done(t('subscription.deactivated')),
    onError: refuse,
  });

  const refusalAlert = (testId: string) =>
    refusal.message || (refusal.insufficientBalance && missingMinor === 0) ? (
      <Alert severity="error" data-testid={testId} sx={{ mt: 2 }}>
        {refusal.message ?? errorMessage('error.insufficient.balance')}
      </Alert>
    ) : null;

  if (!Object.values(actions).some(Boolean)) return null;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="subscription-actions-title" sx={{ p: 3 }}>
      <Typography id="subscription-actions-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('subscription.actions')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {actions.resume && (
          <ReadOnlyAction>
            <Button variant="contained" onClick={() => setOpen('resume')} data-testid="subscription-resume">
              {t('subscription.resume')}
            </Button>
          </ReadOnlyAction>
        )}
        {actions.renew && (
          <ReadOnlyAction>
            <Button
              // The primary action only when it can be done from the balance as it is.
              variant={renewReason === null ? 'contained' : 'outlined'}
              disabled={renewBlocked}
              aria-describedby={renewReason ? 'subscription-renew-reason' : undefined}
              onClick={() => {
                void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
                setOpen('renew');
              }}
              data-testid="subscription-renew"
            >
              {t('subscription.renew')}
            </Button>
          </ReadOnlyAction>
        )}
        {actions.login && (
          <ReadOnlyAction>
            <Button variant="outlined" onClick={() => setOpen('login')} data-testid="subscription-change-login">
              {t('subscription.changeLogin')}
            </Button>
          </ReadOnlyAction>
        )}
        {actions.password && (
          <ReadOnlyAction>
            <Button variant="outlined" onClick={() => setOpen('password')} data-testid="subscription-change-password">
              {t('subscription.changePassword')}
            </Button>
          </ReadOnlyAction>
        )}
        {actions.deactivate && (
          <ReadOnlyAction>
            <Button
              variant="outlined"
              color="warning"
              onClick={() => setOpen('deactivate')}
              data-testid="subscription-deactivate"
            >
              {t('subscription.deactivate')}
            </Button>
          </ReadOnlyAction>
        )}
        {actions.cancel && (
          <ReadOnlyAction>
            <Button
              variant="outlined"
              color="error"
              onClick={() => setOpen('cancel')}
              data-testid="subscription-cancel"
            >
              {t('subscription.cancel')}
            </Button>
          </ReadOnlyAction>
        )}
      </Stack>
      {actions.renew && renewReason && (
        <Typography
          id="subscription-renew-reason"
          variant="body2"
          color="text.secondary"
          sx={{ mt: 1.5 }}
          data-testid="subscription-renew-reason"
        >
          {renewReason}
        </Typography>
      )}

      <CredentialsDialog
        open={open === 'login'}
        title={t('subscription.changeLogin')}
        fields="login"
        submitLabel={t('common.save')}
        pending={changeLogin.isPending}
        testId="change-login"
        serverErrors={refusal.fields}
        footer={refusalAlert('change-login-error')}
        onEdit={clearField}
        onSubmit={(values) => changeLogin.mutate(values.login)}
        onClose={close}
      >
        <Typography color="text.secondary">
          {tIsolated('subscription.changeLoginIntro', { login: subscription.login })}
        </Typography>
      </CredentialsDialog>

      <CredentialsDialog
        open={open === 'password'}
        title={t('subscription.changePassword')}
        fields="password"
        submitLabel={t('common.save')}
        pending={changePassword.isPending}
        testId="change-password"
        serverErrors={refusal.fields}
        footer={refusalAlert('change-password-error')}
        onEdit={clearField}
        onSubmit={(values) => changePassword.mutate(values.password)}
        onClose={close}
      >
        <Typography color="text.secondary">{t('subscription.changePasswordIntro')}</Typography>
      </CredentialsDialog>

      <ConfirmDialog
        open={open === 'cancel'}
        title={t('subscription.cancelTitle')}
        confirmLabel={t('subscription.cancelConfirm')}
        destructive
        pending={cancel.isPending}
        testId="cancel-subscription"
        onConfirm={() => cancel.mutate()}
        onClose={close}
      >
        <Typography>
          {endText ? tIsolated('subscription.cancelText', { date: endText }) : t('subscription.cancelTextNoDate')}
        </Typography>
        {refusalAlert('cancel-subscription-error')}
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'renew'}
        title={t('subscription.renewTitle')}
        confirmLabel={renewByCrypto ? t('subscription.renewCrypto.submit') : t('subscription.renewConfirm')}
        pending={renew.isPending || depositAndRenew.isPending}
        confirmDisabled={plan === null || (missingMinor > 0 && !renewByCrypto)}
        testId="renew"
        onConfirm={() => {
          setRefusal(NO_REFUSAL);
          if (renewByCrypto) depositAndRenew.mutate(asked.askedMinor);
          else renew.mutate();
        }}
        onClose={close}
      >
        {plan ? (
          <Stack spacing={1.5}>
            <Typography>
              {/* Renewing by crypto (below) charges nothing to the balance now. */}
              {t(renewByCrypto || missingMinor > 0 ? 'subscription.renewTextShort' : 'subscription.renewText', {
                name: planTextIn(plan, lang).name,
              })}
            </Typography>
            <PlanPrice pricing={pricing} months={plan.durationInMonths} testId="renew-price" />
            <Typography variant="body2" data-testid="renew-new-end">
              {tIsolated('subscription.renewNewEnd', { date: newEndText })}
            </Typography>
            {me && (
              <Typography variant="body2" color="text.secondary" data-testid="renew-balance">
                {tIsolated('buy.balance', { balance: formatDollars(me.balance, lang) })}
                {missingMinor === 0 && !renewByCrypto && (
                  <>
                    {' · '}
                    {tIsolated('subscription.renewBalanceAfter', {
                      balance: formatDollars(minorToAmount(Math.round(me.balance * 100) - pricing.priceMinor), lang),
                    })}
                  </>
                )}
              </Typography>
            )}
            {renewOptions.length > 1 && (
              <FormControl>
                <FormLabel id="renew-pay-with-label">{t('buy.payWith')}</FormLabel>
                <RadioGroup
                  row
                  aria-labelledby="renew-pay-with-label"
                  value={payWith}
                  onChange={(event) => {
                    setChosenPayWith(event.target.value as RenewPayWith);
                    setRefusal(NO_REFUSAL);
                  }}
                >
                  {renewOptions.map((option) => (
                    <FormControlLabel
                      key={option}
                      value={option}
                      control={<Radio slotProps={{ input: inputTestId(`renew-pay-${option}`) }} />}
                      label={t(RENEW_PAY_WITH_LABELS[option])}
                    />
                  ))}
                </RadioGroup>
              </FormControl>
            )}
            <PromoCodeField
              target={{ subscriptionId: subscription.id }}
              quote={promoQuote}
              onQuote={setPromoQuote}
              testId="renew-promo"
            />
            {missingMinor > 0 && !renewByCrypto && (
              <BalanceShortfall missingMinor={missingMinor} testId="renew-shortfall" />
            )}
            {missingMinor > 0 && !renewCryptoOffered && (
              // The deposit screen's sentence: without a cashier only a manual transfer tops the balance up.
              <Alert severity="info" data-testid="renew-crypto-unavailable">
                {t('deposit.crypto.unavailable')}
              </Alert>
            )}
            {renewByCrypto && (
              <>
                <Typography variant="body2" data-testid="renew-crypto">
                  {tIsolated('subscription.renewCrypto.explain', {
                    price: formatDollars(minorToAmount(asked.askedMinor), lang),
                  })}
                </Typography>
                <DebtIncluded debtMinor={asked.debtMinor} testId="renew-crypto-debt" />
                <CoinSelect value={coin} onChange={setCoin} testId="renew-coin" />
              </>
            )}
          </Stack>
        ) : plans.isPending ? (
          <Typography>{t('common.loading')}</Typography>
        ) : (
          <Alert severity="info" data-testid="renew-unavailable">
            {t('subscription.renewUnavailable')}
          </Alert>
        )}
        {refusalAlert('renew-error')}
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'resume'}
        title={t('subscription.resumeTitle')}
        confirmLabel={t('subscription.resumeConfirm')}
        pending={resume.isPending}
        testId="resume-subscription"
        onConfirm={() => resume.mutate()}
        onClose={close}
      >
        <Typography>
          {/* What happens after: renewing by itself again, or still ending at the end date with renewal off. */}
          {renewsAutomatically({ ...subscription, cancelAtPeriodEnd: false })
            ? tIsolated('subscription.resumeTextRenews', { date: endText ?? '—' })
            : tIsolated('subscription.resumeText', { date: endText ?? '—' })}
        </Typography>
        {refusalAlert('resume-subscription-error')}
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'deactivate'}
        title={t('subscription.deactivateTitle')}
        confirmLabel={t('subscription.deactivateConfirm')}
        destructive
        pending={deactivate.isPending}
        testId="deactivate-recurrent"
        onConfirm={() => subscription.paymentPlan && deactivate.mutate(subscription.paymentPlan.planId)}
        onClose={close}
      >
        <Typography>
          {endText
            ? tIsolated('subscription.deactivateText', { date: endText })
            : t('subscription.deactivateTextNoDate')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t('subscription.deactivateScope', { name: subscription.paymentPlan?.planName ?? '' })}
        </Typography>
        {refusalAlert('deactivate-recurrent-error')}
      </ConfirmDialog>
    </Paper>
  );
}
