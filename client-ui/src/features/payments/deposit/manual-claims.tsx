import { useQuery } from '@tanstack/react-query';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DepositClaimStatus } from '@kupa/proto';
import { depositClaimsApi } from '../../../lib/api/endpoints';
import { formatDate, formatDollars } from '../../../lib/format';
import { useT } from '../../../lib/i18n/i18n';

export const DEPOSIT_CLAIMS_QUERY_KEY = ['deposit-claims'] as const;

/** How many of the client's claims the deposit page lists: the open ones and the latest closed. */
const CLAIMS_SHOWN = 10;

const STATUS_COLOR: Record<DepositClaimStatus, 'default' | 'success' | 'error'> = {
  OPEN: 'default',
  SETTLED: 'success',
  REJECTED: 'error',
};

/** The client's manual-transfer claims (ADR 0112), newest first, with where each stands; nothing while there are none. */
export function ManualClaims() {
  const { t, lang } = useT();
  const { data: claims } = useQuery({ queryKey: DEPOSIT_CLAIMS_QUERY_KEY, queryFn: depositClaimsApi.list });
  if (!Array.isArray(claims) || claims.length === 0) return null;
  return (
    <section aria-labelledby="deposit-claims-title" data-testid="deposit-claims">
      <Typography id="deposit-claims-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t('deposit.claims.title')}
      </Typography>
      <List dense disablePadding>
        {claims.slice(0, CLAIMS_SHOWN).map((claim) => (
          <ListItem key={claim.claimId} disableGutters data-testid={`deposit-claim-${claim.claimId}`}>
            <ListItemText
              primary={
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                  <bdi>{formatDollars(claim.amount, lang)}</bdi>
                  <Chip
                    size="small"
                    color={STATUS_COLOR[claim.status]}
                    label={t(`deposit.claims.status.${claim.status}`)}
                  />
                </Stack>
              }
              secondary={
                formatDate(claim.claimedAt, lang) +
                (claim.reasonText ? ` · ${t('deposit.claims.reason', { reason: claim.reasonText })}` : '')
              }
            />
          </ListItem>
        ))}
      </List>
    </section>
  );
}
