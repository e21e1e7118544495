import { type SavedCardView } from '@kupa/proto';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; view: SavedCardView };

/**
 * The card the client keeps at Stripe for automatic renewals (docs/adr/0085-saved-cards.md), as the client sees it:
 * brand, last four digits and expiry, or that there is none. Staff only read it; the client saves and removes it.
 */
export function SavedCardLine({ userUuid }: { userUuid: string }) {
  const dataProvider = useDataProvider<KupaDataProvider>();
  const translate = useTranslate();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    dataProvider.getClientSavedCard(userUuid).then(
      (view) => current && setState({ status: 'ready', view }),
      () => current && setState({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, userUuid]);
  if (state.status === 'loading') return <CircularProgress size={16} />;
  if (state.status === 'failed')
    return (
      <Alert severity="error" data-testid="client-saved-card-failed">
        {translate('kupa.clients.saved_card.failed')}
      </Alert>
    );
  const { card } = state.view;
  return (
    <Box
      data-testid="client-saved-card"
      sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}
    >
      <CreditCardIcon fontSize="small" color="action" aria-hidden />
      <Typography component="span" variant="body2" color="text.secondary">
        {translate('kupa.clients.saved_card.title')}:
      </Typography>
      {card ? (
        <>
          <Typography component="span" variant="body2">
            <bdi
              dir="ltr"
              data-testid="client-saved-card-number"
            >{`${card.brand.toUpperCase()} •••• ${card.last4}`}</bdi>
          </Typography>
          <Typography component="span" variant="body2" color="text.secondary" data-testid="client-saved-card-expiry">
            {translate('kupa.clients.saved_card.expires', {
              expiry: `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`,
            })}
          </Typography>
        </>
      ) : (
        <Typography component="span" variant="body2" data-testid="client-saved-card-none">
          {translate('kupa.clients.saved_card.none')}
        </Typography>
      )}
    </Box>
  );
}
