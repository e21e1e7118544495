import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Box, Button, Typography } from '@mui/material';
import { type ReactNode } from 'react';
import { Title, useNavigate, useTranslate } from 'react-admin';
import { formatErrorMessage } from '@kupa/proto';
import { useAdminPath } from '../shared/admin-path';
import { useLang } from '../shared/use-lang';

interface NotFoundProps {
  message?: ReactNode;
  backLabel?: ReactNode;
  /** Where "back" leads when there is no history to return to (for example a link opened in a new tab). */
  fallbackPath?: string;
}

/** The catch-all route: react-admin renders it for any path no resource owns. */
export function NotFoundPage() {
  return <NotFound />;
}

/** The page for an unknown route or a missing record, with a way back. */
export function NotFound({ message, backLabel, fallbackPath = '/' }: NotFoundProps) {
  const translate = useTranslate();
  const lang = useLang();
  const navigate = useNavigate();
  const adminPath = useAdminPath();
  const goBack = () => {
    // React Router stores its position in history.state.idx; 0 means this page was the first one opened.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    // The router itself has no basename (react-admin holds it), so the console's prefix is added here.
    else navigate(adminPath(fallbackPath));
  };
  return (
    <Box data-testid="not-found" sx={{ textAlign: 'center', py: 8, px: 2 }}>
      <Title title={translate('kupa.not_found.title')} />
      <SearchOffIcon sx={{ fontSize: 64, color: 'text.secondary' }} />
      <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
        {message ?? formatErrorMessage('error.page.not.found', lang)}
      </Typography>
      <Button variant="contained" sx={{ mt: 3 }} onClick={goBack} data-testid="not-found-back">
        {backLabel ?? translate('kupa.not_found.back')}
      </Button>
    </Box>
  );
}
