import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { LIMITS } from '@kupa/proto';
import { currentLang } from '../stores/lang-store';
import { translate } from '../i18n/i18n';
import { showToast } from '../toast/toast-store';
import { errorMessageFor, isApiError } from './api-error';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

/** Shows a failed call as a toast: a generic title and the catalogue message (docs/product.md, Common). */
export function notifyError(error: unknown): void {
  if (isApiError(error) && error.handled) return;
  const lang = currentLang();
  showToast({ severity: 'error', title: translate(lang, 'toast.errorTitle'), message: errorMessageFor(error, lang) });
}

/**
 * Data is fresh for 60 seconds and nothing is retried: a retry of a payment call could charge twice, and
 * the API client already retries once after a token refresh. Screens that explain an error in place set
 * `meta.silentError` so the toast does not repeat it.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: LIMITS.queryStaleTimeMs, retry: false },
      mutations: { retry: false },
    },
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silentError) notifyError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silentError) notifyError(error);
      },
    }),
  });
}
