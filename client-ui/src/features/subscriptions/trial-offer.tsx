import { useId, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CardGiftcardOutlinedIcon from '@mui/icons-material/CardGiftcardOutlined';
import { LIMITS, type SubscriptionSearchRequest } from '@kupa/proto';
import { subscriptionsApi } from '../../lib/api/endpoints';
import { ME_QUERY_KEY, useMe } from '../../lib/api/use-me';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { ConfirmDialog } from '../../lib/ui/confirm-dialog';
import { CredentialsDialog } from './credentials-dialog';
import type { CredentialsField, CredentialsValues } from './credentials-form';
import { afterEdit, credentialsRefusal, NO_REFUSAL, type CredentialsRefusal } from './subscription-errors';
import { SUBSCRIPTIONS_QUERY_KEY, subscriptionsListQueryOptions } from './subscriptions-query';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';

/** Any package bought: one row is enough to know. */
const BOUGHT_REQUEST: SubscriptionSearchRequest = { page: 0, size: 1, types: ['REGULAR'] };

/** The trial's rules, stated wherever a trial is offered or shown. */
export function TrialRules() {
  const { t } = useT();
  return (
    <Box component="ul" sx={{ m: 0, paddingInlineStart: 3, '& li': { mb: 0.5 } }} data-testid="trial-rules">
      <li>{t('trial.rule.days', { days: LIMITS.trialDays })}</li>
      <li>{t('trial.rule.once')}</li>
      <li>{t('trial.rule.noCancel')}</li>
      <li>{t('trial.rule.loginFixed')}</li>
    </Box>
  );
}

/**
 * A new user's one chance at the trial (neither taken nor declined, by `/users/me`, and no package bought yet: the
 * trial is for trying the service before buying): take it with a login and a
 * password (`POST /subscriptions/users/{uuid}/trial`), or decline it for good (`PUT /users/trial-reject`). Either way
 * the offer disappears once the user record says so.
 */
/**
 * Whether the trial offer shows, once that is known: the user record says whether the trial was taken or declined,
 * and, where it was neither, the subscriptions say whether a package was bought. A screen that puts the offer above
 * its content waits for `decided` before it shows either, so the offer does not arrive later and push the content
 * down (a layout shift of 0.44 on `/packages`; docs/adr/0079-say-what-happened-and-keep-what-was-typed.md).
 */
export function useTrialOfferDecision(): { decided: boolean; offered: boolean } {
  const { data: me } = useMe();
  const mayTake = me !== undefined && !me.trialUsed && !me.trialRejected;
  const bought = useQuery({ ...subscriptionsListQueryOptions(BOUGHT_REQUEST), enabled: mayTake });
  if (me === undefined) return { decided: false, offered: false };
  if (!mayTake) return { decided: true, offered: false };
  if (bought.data) return { decided: true, offered: bought.data.totalElements === 0 };
  // A failure to tell shows no offer rather than a wrong one, and no longer holds the screen back.
  return { decided: bought.isError, offered: false };
}

export function TrialOffer() {
  const { t, lang } = useT();
  const titleId = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const [taking, setTaking] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [refusal, setRefusal] = useState<CredentialsRefusal>(NO_REFUSAL);
  const mayTake = me !== undefined && !me.trialUsed && !me.trialRejected;
  // The user record does not say whether a package was bought; the subscriptions do.
  const bought = useQuery({ ...subscriptionsListQueryOptions(BOUGHT_REQUEST), enabled: mayTake });

  const take = useMutation({
    mutationFn: ({ userUuid, values }: { userUuid: string; values: CredentialsValues }) =>
      subscriptionsApi.takeTrial(userUuid, { login: values.login, password: values.password }),
    meta: { silentError: true },
    onSuccess: async (subscription) => {
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('trial.started') });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY }),
      ]);
      setTaking(false);
      await navigate({ to: '/subscriptions/$subscriptionId', params: { subscriptionId: subscription.id } });
    },
    onError: (error) => {
      setRefusal(credentialsRefusal(error, lang));
      // A trial used meanwhile (another tab) hides the offer once the user record is read again.
      void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    },
  });

  const decline = useMutation({
    mutationFn: subscriptionsApi.rejectTrial,
    onSuccess: async () => {
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('trial.declined') });
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      setDeclining(false);
    },
    onError: () => setDeclining(false),
  });

  // Shown once it is known that nothing was bought; a failure to tell shows no offer rather than a wrong one.
  if (!me || !mayTake || !bought.data || bought.data.totalElements > 0) return null;

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      data-testid="trial-offer"
      sx={{ p: { xs: 2, sm: 3 }, borderColor: 'primary.main' }}
    >
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <CardGiftcardOutlinedIcon color="primary" aria-hidden />
          <Typography id={titleId} variant="h6" component="h2">
            {t('trial.title', { days: LIMITS.trialDays })}
          </Typography>
        </Stack>
        <Typography color="text.secondary">{t('trial.intro')}</Typography>
        <TrialRules />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <ReadOnlyAction>
            <Button variant="contained" onClick={() => setTaking(true)} data-testid="trial-take">
              {t('trial.take')}
            </Button>
          </ReadOnlyAction>
          <ReadOnlyAction>
            <Button variant="text" onClick={() => setDeclining(true)} data-testid="trial-decline">
              {t('trial.decline')}
            </Button>
          </ReadOnlyAction>
        </Stack>
      </Stack>

      <CredentialsDialog
        open={taking}
        title={t('trial.dialogTitle', { days: LIMITS.trialDays })}
        fields="both"
        submitLabel={t('trial.take')}
        pending={take.isPending}
        testId="trial"
        serverErrors={refusal.fields}
        footer={
          refusal.message ? (
            <Alert severity="error" data-testid="trial-error">
              {refusal.message}
            </Alert>
          ) : null
        }
        onEdit={(field: CredentialsField) => setRefusal((current) => afterEdit(current, field))}
        onSubmit={(values) => {
          setRefusal(NO_REFUSAL);
          take.mutate({ userUuid: me.userUuid, values });
        }}
        onClose={() => {
          setRefusal(NO_REFUSAL);
          setTaking(false);
        }}
      >
        <TrialRules />
      </CredentialsDialog>

      <ConfirmDialog
        open={declining}
        title={t('trial.declineTitle')}
        confirmLabel={t('trial.declineConfirm')}
        destructive
        pending={decline.isPending}
        testId="trial-decline"
        onConfirm={() => decline.mutate()}
        onClose={() => setDeclining(false)}
      >
        <Typography>{t('trial.declineText')}</Typography>
      </ConfirmDialog>
    </Paper>
  );
}
