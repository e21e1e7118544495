import { type ErrorCode, formatErrorMessage } from '@kupa/proto';
import { Alert } from '@mui/material';
import { useShowContext, useTranslate } from 'react-admin';
import { NotFound } from '../layout/not-found';
import { ApiError } from '../providers/http-client';
import { useLang } from './use-lang';

interface RecordLoadErrorProps {
  /** The server's code for "no such record" (the client detail shows not-found on `error.user.not.found`). */
  notFoundCode: ErrorCode;
  /** Translation key of the back button. */
  backLabel: string;
  fallbackPath: string;
}

/**
 * What a detail page shows when its record cannot be loaded: the not-found screen when the server says the record
 * does not exist, otherwise the server's message (already the catalogue text of the page language).
 */
export function RecordLoadError({ notFoundCode, backLabel, fallbackPath }: RecordLoadErrorProps) {
  const { error } = useShowContext();
  const translate = useTranslate();
  const lang = useLang();
  const notFound = error instanceof ApiError && (error.code === notFoundCode || error.status === 404);
  if (notFound) {
    return (
      <NotFound
        message={formatErrorMessage(notFoundCode, lang)}
        backLabel={translate(backLabel)}
        fallbackPath={fallbackPath}
      />
    );
  }
  return (
    <Alert severity="error" sx={{ mt: 2 }}>
      {error instanceof Error ? error.message : formatErrorMessage('error.internal.server.error', lang)}
    </Alert>
  );
}
