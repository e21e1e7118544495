import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { minorToAmount, type Plan } from '@kupa/proto';
import { subscriptionsApi } from '../../lib/api/endpoints';
import { ME_QUERY_KEY, useMe } from '../../lib/api/use-me';
import { formatDollars } from '../../lib/format';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { BalanceShortfall, shortfallMinor } from '../payments/balance-shortfall';
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
import { PlanPrice, type PlanPricing } from './plan-price';

/**
 * Buys a package with the balance (`POST /subscriptions/balance/payment-plans/{id}`): the login and password the
 * streaming service account opens with, checked first with proto's rules. A balance that is short says by how much and
 * leads to the top-up; a success opens the new subscription.
 */
export function BuyDialog({
  plan,
  pricing,
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

  const buy = useMutation({
    mutationFn: ({ planId, values }: { planId: string; values: CredentialsValues }) =>
      subscriptionsApi.buyWithBalance(planId, { login: values.login, password: values.password }),
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

  const missingMinor = me ? shortfallMinor(pricing.priceMinor, me.balance) : 0;
  const close = () => {
    setRefusal(NO_REFUSAL);
    buy.reset();
    onClose();
  };

  const footer =
    missingMinor > 0 ? (
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
      submitLabel={t('buy.submit')}
      pending={buy.isPending}
      testId="buy"
      serverErrors={refusal.fields}
      submitDisabled={missingMinor > 0}
      footer={footer}
      onEdit={(field: CredentialsField) => setRefusal((current) => afterEdit(current, field))}
      onSubmit={(values) => {
        if (!plan) return;
        setRefusal(NO_REFUSAL);
        buy.mutate({ planId: plan.id, values });
      }}
      onClose={close}
    >
      {plan && (
        <Paper variant="outlined" sx={{ p: 2 }} data-testid="buy-summary">
          <Stack spacing={1}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }} dir="auto">
              {plan.name}
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
      <Typography variant="body2" color="text.secondary">
        {t('buy.credentialsIntro')}
      </Typography>
    </CredentialsDialog>
  );
}
