import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Box, Button, Typography } from '@mui/material';
import { type ReactNode } from 'react';
import { Navigate, Title, useBasename, useLocation, useNavigate, usePermissions, useTranslate } from 'react-admin';
import { formatErrorMessage, type UserRole } from '@kupa/proto';
import { homePathFor, isForbiddenPath } from '../resources';
import { useAdminPath } from '../shared/admin-path';
import { useLang } from '../shared/use-lang';

interface NotFoundProps {
  message?: ReactNode;
  backLabel?: ReactNode;
  /** Where "back" leads when there is no history to return to (for example a link opened in a new tab). */
  fallbackPath?: string;
}

/**
 * The catch-all route: react-admin renders it for any path no registered resource owns. A page the console has but
 * the signed-in role may not open (a manager at `/payments`) leads to the role's first sidebar entry; anything else
 * is "page not found".
 */
export function NotFoundPage() {
  const { permissions, isPending } = usePermissions<UserRole | null>();
  const location = useLocation();
  const basename = useBasename();
  if (isPending) return null;
  const path = location.pathname.startsWith(basename) ? location.pathname.slice(basename.length) : location.pathname;
  if (isForbiddenPath(permissions ?? null, path)) {
    return <Navigate to={`${basename}${homePathFor(permissions ?? null)}`} replace />;
  }
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
