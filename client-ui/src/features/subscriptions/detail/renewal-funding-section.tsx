import { useMutation, useQueryClient } from '@tanstack/react-query';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import {
  clientEnumLabel,
  RENEWAL_FUNDINGS,
  type RenewalFunding,
  renewsAutomatically,
  type Subscription,
  usesSavedCard,
} from '@kupa/proto';
import { savedCardApi } from '../../../lib/api/endpoints';
import { useSavedCard } from '../../../lib/api/use-saved-card';
import { usePartT } from '../../../lib/i18n/dictionary-part';
import { useT } from '../../../lib/i18n/i18n';
import { VIEW_AS_MESSAGES } from '../../../lib/view-as/view-as-messages';
import { showToast } from '../../../lib/toast/toast-store';
import { SUBSCRIPTIONS_QUERY_KEY } from '../subscriptions-query';
import { useIsViewingAs } from '../../../lib/view-as/view-as-store';

/**
 * How a subscription that renews by itself is paid (docs/adr/0085-saved-cards.md): the balance, the balance then the
 * saved card, or the card only. The card choices need a saved card; shown where saving cards is offered, or where
 * the subscription still uses the card after the operator's switch was turned off, so it can go back to the balance.
 */
export function RenewalFundingSection({ subscription }: { subscription: Subscription }) {
  const { t, lang } = useT();
  const { t: tViewAs } = usePartT(VIEW_AS_MESSAGES);
  const queryClient = useQueryClient();
  const { data: savedCard } = useSavedCard();
  // A staff member's view of the client shows the choice without letting it change (ADR 0092).
  const viewing = useIsViewingAs();
  const choose = useMutation({
    mutationFn: (funding: RenewalFunding) => savedCardApi.chooseFunding(subscription.id, { funding }),
    onSuccess: () => {
      showToast({ severity: 'success', title: t('toast.successTitle'), message: t('subscription.fundingSaved') });
      void queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY });
    },
  });
  if (savedCard === undefined || !renewsAutomatically(subscription)) return null;
  const { available } = savedCard;
  if (!available && !usesSavedCard(subscription.renewalFunding)) return null;
  const hasCard = savedCard.card !== null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="renewal-funding-title" sx={{ p: 3 }}>
      <Typography id="renewal-funding-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('subscription.funding')}
      </Typography>
      <RadioGroup
        aria-labelledby="renewal-funding-title"
        value={choose.isPending ? choose.variables : subscription.renewalFunding}
        onChange={(_event, value) => choose.mutate(value as RenewalFunding)}
      >
        {RENEWAL_FUNDINGS.map((funding) => (
          <FormControlLabel
            key={funding}
            value={funding}
            control={<Radio slotProps={{ input: { 'data-testid': `renewal-funding-${funding}` } as object }} />}
            label={clientEnumLabel('renewalFunding', funding, lang)}
            disabled={viewing || choose.isPending || (usesSavedCard(funding) && (!available || !hasCard))}
          />
        ))}
      </RadioGroup>
      {viewing ? (
        <Typography variant="body2" color="text.secondary" data-testid="renewal-funding-read-only">
          {tViewAs('readOnlyAction')}
        </Typography>
      ) : null}
      {!available ? (
        <Typography variant="body2" color="text.secondary" data-testid="renewal-funding-card-off">
          {t('subscription.fundingCardOff')}
        </Typography>
      ) : hasCard ? null : (
        <Typography variant="body2" color="text.secondary" data-testid="renewal-funding-needs-card">
          {t('subscription.fundingNeedsCard')}
        </Typography>
      )}
    </Paper>
  );
}
