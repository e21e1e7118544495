import { useEffect } from 'react';
import type { ErrorComponentProps } from '@tanstack/react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { browser } from '../../lib/browser';
import { errorMessageFor, isApiError, isConnectionLost } from '../../lib/api/api-error';
import { useT } from '../../lib/i18n/i18n';
import { isStaleChunkError, reloadOnce } from '../../lib/reload-once';

/** A screen that failed: title, description, the error's message and a reload button (docs/product.md, Screens). */
export function ErrorScreen({ error }: ErrorComponentProps) {
  const { t, lang, errorMessage } = useT();
  // A screen whose code vanished after a deploy gets one automatic reload before this screen is shown for real.
  useEffect(() => {
    if (isStaleChunkError(error)) reloadOnce();
  }, [error]);
  const detail = isApiError(error)
    ? errorMessageFor(error, lang)
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Stack
      component="main"
      spacing={2}
      sx={{ alignItems: 'center', textAlign: 'center', py: 12, px: 2 }}
      data-testid="error-screen"
    >
      <Typography variant="h4" component="h1">
        {t('error.title')}
      </Typography>
      <Typography color="text.secondary">
        {isConnectionLost(error) ? t('toast.connectionTitle') : errorMessage('error.something.went.wrong')}
      </Typography>
      <Alert severity="error" sx={{ maxWidth: 560, textAlign: 'start' }}>
        {detail}
      </Alert>
      <Button variant="contained" onClick={() => browser.reload()}>
        {isConnectionLost(error) ? t('toast.retry') : t('error.reload')}
      </Button>
    </Stack>
  );
}
