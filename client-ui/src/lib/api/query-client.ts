import { hashKey, type Mutation, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { LIMITS } from '@kupa/proto';
import { currentLang } from '../stores/lang-store';
import { translate } from '../i18n/i18n';
import { showToast, useToastStore } from '../toast/toast-store';
import { errorMessageFor, isApiError, isConnectionLost, isServiceBusy } from './api-error';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

/**
 * Shows a failed call as a toast: a generic title and the catalogue message (docs/product.md, Common). `source` names
 * the call, so that its later success closes the toast (see `resolveErrors`). A call that reached no server says so
 * ("No connection") rather than blaming the server; such a read, and one the server answered as busy for a moment,
 * offers `retry`. A write is not retried from here, since its form is still on screen to send again.
 */
export function notifyError(error: unknown, source?: string, retry?: () => void): void {
  if (isApiError(error) && error.handled) return;
  const lang = currentLang();
  const connectionLost = isConnectionLost(error);
  showToast({
    severity: 'error',
    title: translate(lang, connectionLost ? 'toast.connectionTitle' : 'toast.errorTitle'),
    message: errorMessageFor(error, lang),
    source,
    ...((connectionLost || isServiceBusy(error)) && retry ? { retry } : {}),
  });
}

/** A failure that is no longer true is no longer shown: the source's success closes its error toast. */
function resolveErrors(source: string): void {
  useToastStore.getState().dismissSource(source);
}

/** A query is its own source; a mutation is the source of its key, or else one source for all unnamed mutations. */
const querySource = (queryHash: string) => `query:${queryHash}`;
function mutationSource(mutation: Mutation<unknown, unknown, unknown, unknown>): string {
  const key = mutation.options.mutationKey;
  return key ? `mutation:${hashKey(key)}` : 'mutation';
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
        if (!query.meta?.silentError)
          notifyError(error, querySource(query.queryHash), () => {
            void query.fetch().catch(() => undefined);
          });
      },
      onSuccess: (_data, query) => resolveErrors(querySource(query.queryHash)),
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silentError) notifyError(error, mutationSource(mutation));
      },
      onSuccess: (_data, _variables, _context, mutation) => resolveErrors(mutationSource(mutation)),
    }),
  });
}
