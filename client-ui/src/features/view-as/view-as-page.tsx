import { useEffect, useRef, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { usePartT } from '../../lib/i18n/dictionary-part';
import { VIEW_AS_MESSAGES } from '../../lib/view-as/view-as-messages';
import { AuthCard } from '../../lib/ui/page';
import { browser } from '../../lib/browser';
import { useUserStore } from '../../lib/stores/user-store';
import { openViewAs } from '../../lib/view-as/open-view-as';
import { takeViewAsToken } from '../../lib/view-as/view-as-token';

type Opening = 'opening' | 'refused' | 'none';

/**
 * The console opens `/view-as#<token>` in a new tab (docs/adr/0092-refund-to-balance-and-view-as.md): the token is
 * taken from the fragment (which leaves the address bar at once), the view opens and the client's home follows. Without
 * a token (the view ended, or the address was opened by hand) the page says how to open one; it never asks for a
 * sign-in, since signing in is not what a staff member in this tab wants.
 */
export function ViewAsPage() {
  const { t } = usePartT(VIEW_AS_MESSAGES);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hasSession = useUserStore((state) => state.accessToken !== null && state.userRole !== null);
  const [opening, setOpening] = useState<Opening>(() => (window.location.hash.length > 1 ? 'opening' : 'none'));
  const started = useRef(false);

  useEffect(() => {
    // Strict mode runs effects twice in development; the fragment is taken once.
    if (started.current) return;
    started.current = true;
    const token = takeViewAsToken();
    if (token === null) {
      if (hasSession) void navigate({ to: '/', replace: true });
      return;
    }
    queryClient.clear();
    openViewAs(token)
      .then(() => navigate({ to: '/', replace: true }))
      .catch(() => setOpening('refused'));
  }, [hasSession, navigate, queryClient]);

  if (opening === 'opening') {
    return (
      <Stack role="status" aria-label={t('opening')} sx={{ alignItems: 'center', py: 8 }}>
        <CircularProgress />
      </Stack>
    );
  }
  return (
    <AuthCard title={t('closed.title')}>
      {opening === 'refused' && (
        <Alert severity="warning" data-testid="view-as-refused">
          {t('closed.refused')}
        </Alert>
      )}
      <Typography data-testid="view-as-closed">{t('closed.body')}</Typography>
      <div>
        <Button variant="contained" onClick={() => browser.close()}>
          {t('closeTab')}
        </Button>
      </div>
    </AuthCard>
  );
}
