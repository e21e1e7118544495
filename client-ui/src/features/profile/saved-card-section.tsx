import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { savedCardApi } from '../../lib/api/endpoints';
import { SAVED_CARD_QUERY_KEY, useSavedCard } from '../../lib/api/use-saved-card';
import { browser } from '../../lib/browser';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { ConfirmDialog } from '../../lib/ui/confirm-dialog';
import { ReadOnlyAction } from '../../lib/view-as/read-only-action';

/**
 * The card kept at Stripe for automatic renewals (docs/adr/0085-saved-cards.md): brand, last four digits and expiry;
 * saving goes to Stripe's page (nothing is charged), or the sandbox card's test page, which the hint says (ADR 0087);
 * removing asks first. Where saving is not offered it is not shown,
 * unless a card was saved before (the operator's switch turned off since): the client can always remove it.
 */
export function SavedCardSection() {
  const { t } = useT();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const { data } = useSavedCard();
  const setup = useMutation({ mutationFn: savedCardApi.setup, onSuccess: ({ url }) => browser.assign(url) });
  const remove = useMutation({
    mutationFn: savedCardApi.remove,
    onSuccess: () => {
      setConfirming(false);
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('profile.cardRemoved') });
      void queryClient.invalidateQueries({ queryKey: SAVED_CARD_QUERY_KEY });
    },
  });
  if (data === undefined || (!data.available && data.card === null)) return null;
  const { available, card } = data;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="saved-card-title" sx={{ p: 3 }}>
      <Typography id="saved-card-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('profile.savedCard')}
      </Typography>
      {card ? (
        <Stack spacing={0.5} sx={{ mb: 2 }} data-testid="saved-card">
          <Typography>
            <bdi dir="ltr" data-testid="saved-card-number">
              {`${card.brand.toUpperCase()} •••• ${card.last4}`}
            </bdi>
          </Typography>
          <Typography color="text.secondary" data-testid="saved-card-expiry">
            {t('profile.savedCardExpires', {
              expiry: `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`,
            })}
          </Typography>
        </Stack>
      ) : (
        <Typography sx={{ mb: 2 }} data-testid="saved-card-none">
          {t('profile.savedCardNone')}
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="saved-card-hint">
        {!available
          ? t('profile.savedCardOff')
          : data.provider === 'SANDBOX'
            ? t('profile.saveCardSandboxHint')
            : t('profile.saveCardHint')}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {available ? (
          <ReadOnlyAction>
            <Button
              variant="contained"
              disabled={setup.isPending || setup.isSuccess}
              onClick={() => setup.mutate()}
              data-testid="saved-card-setup"
            >
              {setup.isPending || setup.isSuccess
                ? t('form.sending')
                : card
                  ? t('profile.replaceCard')
                  : t('profile.saveCard')}
            </Button>
          </ReadOnlyAction>
        ) : null}
        {card ? (
          <ReadOnlyAction>
            <Button
              variant="outlined"
              color="error"
              onClick={() => setConfirming(true)}
              data-testid="saved-card-remove"
            >
              {t('profile.removeCard')}
            </Button>
          </ReadOnlyAction>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={confirming}
        title={t('profile.removeCardTitle')}
        confirmLabel={t('profile.removeCard')}
        destructive
        pending={remove.isPending}
        testId="saved-card-remove"
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      >
        {t('profile.removeCardText')}
      </ConfirmDialog>
    </Paper>
  );
}
