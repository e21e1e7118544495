import { useEffect, useRef } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { authApi } from '../../../lib/api/endpoints';
import { useT } from '../../../lib/i18n/i18n';
import { useUserStore } from '../../../lib/stores/user-store';

/**
 * Ends the session: the server revokes the refresh cookie, the local user and cached data are dropped, and the
 * login screen follows. A failed logout call still signs out locally, since the user asked to leave.
 */
export function LogoutPage() {
  const { t } = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);

  useEffect(() => {
    // Strict mode runs effects twice in development; one logout call is enough.
    if (started.current) return;
    started.current = true;
    authApi
      .logout()
      .catch(() => undefined)
      .finally(() => {
        useUserStore.getState().clear();
        queryClient.clear();
        void navigate({ to: '/login', replace: true });
      });
  }, [navigate, queryClient]);

  return (
    <Stack role="status" aria-label={t('nav.logout')} sx={{ alignItems: 'center', py: 8 }} data-testid="logging-out">
      <CircularProgress />
    </Stack>
  );
}
