import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, Typography } from '@mui/material';
import { type ErrorProps, Title, useTranslate } from 'react-admin';

/** Shown when a screen throws: a title, what happened in plain words, the error's own message and a reload. */
export function ErrorPage({ error }: ErrorProps) {
  const translate = useTranslate();
  const message = error instanceof Error ? error.message : String(error ?? '');
  return (
    <Box role="alert" data-testid="error-page" sx={{ textAlign: 'center', py: 8, px: 2 }}>
      <Title title={translate('kupa.error_page.title')} />
      <ErrorOutlineIcon color="error" sx={{ fontSize: 64 }} />
      <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
        {translate('kupa.error_page.title')}
      </Typography>
      <Typography sx={{ mt: 1 }}>{translate('kupa.error_page.description')}</Typography>
      {message ? (
        <Typography component="pre" variant="body2" sx={{ mt: 2, whiteSpace: 'pre-wrap', color: 'text.secondary' }}>
          {message}
        </Typography>
      ) : null}
      <Button variant="contained" startIcon={<RefreshIcon />} sx={{ mt: 3 }} onClick={() => window.location.reload()}>
        {translate('kupa.error_page.reload')}
      </Button>
    </Box>
  );
}
