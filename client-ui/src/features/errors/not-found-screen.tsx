import { useCanGoBack, useRouter } from '@tanstack/react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useT } from '../../lib/i18n/i18n';

/** Unknown routes: says the page does not exist and goes back in history if possible, else to the root route. */
export function NotFoundScreen() {
  const { t, errorMessage } = useT();
  const router = useRouter();
  const canGoBack = useCanGoBack();
  return (
    <Stack component="main" spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 12, px: 2 }} data-testid="not-found">
      <Typography variant="h2" component="p" color="text.secondary" aria-hidden>
        404
      </Typography>
      <Typography variant="h4" component="h1">
        {t('notFound.title')}
      </Typography>
      <Typography color="text.secondary">{errorMessage('error.page.not.found')}</Typography>
      <Button
        variant="contained"
        onClick={() => {
          if (canGoBack) router.history.back();
          else void router.navigate({ to: '/' });
        }}
      >
        {t('notFound.back')}
      </Button>
    </Stack>
  );
}
