import { useCanGoBack, useRouter } from '@tanstack/react-router';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useT } from '../../lib/i18n/i18n';

interface NotFoundViewProps {
  /** What is missing; by default the page itself. */
  message?: string;
  /**
   * Set when the screen renders inside the app layout (a record the server does not know), which already has the
   * page's `<main>` landmark.
   */
  embedded?: boolean;
}

/** Unknown routes: says the page does not exist and goes back in history if possible, else to the root route. */
export function NotFoundScreen() {
  return <NotFoundView />;
}

/** The not-found screen's content, also shown by screens whose record the server does not know. */
export function NotFoundView({ message, embedded = false }: NotFoundViewProps) {
  const { t, errorMessage } = useT();
  const router = useRouter();
  const canGoBack = useCanGoBack();
  return (
    <Stack
      component={embedded ? 'section' : 'main'}
      spacing={2}
      sx={{ alignItems: 'center', textAlign: 'center', py: embedded ? 6 : 12, px: 2 }}
      data-testid="not-found"
    >
      <Typography variant="h2" component="p" color="text.secondary" aria-hidden>
        404
      </Typography>
      <Typography variant="h4" component="h1">
        {t('notFound.title')}
      </Typography>
      <Typography color="text.secondary">{message ?? errorMessage('error.page.not.found')}</Typography>
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

/** An address the app does not have, opened while signed in: the not-found content inside the app's frame. */
export function NotFoundInShell() {
  return <NotFoundView embedded />;
}
