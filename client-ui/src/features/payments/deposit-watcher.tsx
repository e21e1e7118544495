import { useEffect, useState } from 'react';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { CASHIER_DEFAULTS, type Payment, type PaymentSearchRequest } from '@kupa/proto';
import { paymentsApi } from '../../lib/api/endpoints';
import { ME_QUERY_KEY } from '../../lib/api/use-me';
import { useT } from '../../lib/i18n/i18n';
import { showToast } from '../../lib/toast/toast-store';
import { SUBSCRIPTIONS_QUERY_KEY } from '../subscriptions/subscriptions-query';
import { depositNotice, depositOutcomeKnown } from './deposit-outcome';
import { PAYMENTS_QUERY_KEY } from './payments-query';

/** The client's cashier deposits that wait for their money. */
export const PENDING_DEPOSITS: PaymentSearchRequest = {
  statuses: ['PENDING'],
  types: ['DEPOSIT'],
  aggregators: ['CASHIER'],
  page: 0,
  size: CASHIER_DEFAULTS.pendingDepositsPerUserMax,
};

export const PENDING_DEPOSITS_QUERY_KEY = [...PAYMENTS_QUERY_KEY, 'pending-deposits'] as const;

/** Twice the invoice screen's pace: the notice may come a few seconds late, the server is asked half as often. */
export const DEPOSIT_WATCH_INTERVAL_MS = CASHIER_DEFAULTS.statusPollIntervalMs * 2;

/**
 * The deposits this tab has seen waiting, kept for the tab's life (sessionStorage), so that a client sent back from the
 * cashier's page to a freshly loaded app still hears about the deposit that settled meanwhile.
 */
const STORAGE_KEY = 'kupa.watchedDeposits';

function readWatched(): number[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((id): id is number => Number.isSafeInteger(id)) : [];
  } catch {
    return [];
  }
}

function writeWatched(ids: readonly number[]): void {
  try {
    if (ids.length === 0) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, JSON.stringify(ids));
  } catch {
    // Storage refused (private mode): the watch still works for as long as the page stays open.
  }
}

/**
 * Tells the client when a deposit of theirs settles, wherever they are in the app: the pending cashier deposits are
 * polled (slowly, and only while there are any); one that leaves the list is read once more, followed until its
 * purchase (deposit-and-buy, deposit-and-renew) is done too, then announced in a notice with what was credited and
 * what was bought, and the balance, payments and subscriptions are read again. Renders nothing.
 */
export function DepositWatcher() {
  const { lang } = useT();
  const queryClient = useQueryClient();
  // Deposits seen PENDING and not yet announced.
  const [watched, setWatched] = useState<number[]>(readWatched);

  const pending = useQuery({
    queryKey: PENDING_DEPOSITS_QUERY_KEY,
    queryFn: ({ signal }) => paymentsApi.search(PENDING_DEPOSITS, signal),
    refetchInterval: (query) => ((query.state.data?.content?.length ?? 0) > 0 ? DEPOSIT_WATCH_INTERVAL_MS : false),
    meta: { silentError: true },
  });
  // Read defensively: a watch that runs on every screen must never be what breaks one.
  const pendingIds = Array.isArray(pending.data?.content)
    ? pending.data.content.map((payment) => payment.paymentId)
    : undefined;

  // Every deposit seen waiting joins the watch.
  useEffect(() => {
    if (!pendingIds) return;
    setWatched((current) => {
      const added = pendingIds.filter((id) => !current.includes(id));
      return added.length === 0 ? current : [...current, ...added];
    });
    // The ids, not the array's identity, decide.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pendingIds?.join(',')]);

  useEffect(() => writeWatched(watched), [watched]);

  // A watched deposit that is no longer in the pending list is read by itself until its outcome is known.
  const left = pendingIds ? watched.filter((id) => !pendingIds.includes(id)) : [];
  const outcomes = useQueries({
    queries: left.map((paymentId) => ({
      queryKey: [...PAYMENTS_QUERY_KEY, 'watched', paymentId] as const,
      queryFn: () => paymentsApi.get(paymentId),
      refetchInterval: (query: { state: { data?: Payment } }) =>
        query.state.data && depositOutcomeKnown(query.state.data) ? false : CASHIER_DEFAULTS.statusPollIntervalMs,
      meta: { silentError: true },
      retry: false,
    })),
  });
  const known = outcomes
    .map((outcome) => outcome.data)
    .filter((payment): payment is Payment => payment !== undefined && depositOutcomeKnown(payment));
  const knownKey = known.map((payment) => payment.paymentId).join(',');

  useEffect(() => {
    if (known.length === 0) return;
    for (const payment of known) showToast({ ...depositNotice(payment, lang), source: `deposit-${payment.paymentId}` });
    const done = known.map((payment) => payment.paymentId);
    setWatched((current) => current.filter((id) => !done.includes(id)));
    void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: PAYMENTS_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: SUBSCRIPTIONS_QUERY_KEY });
    // Announced once per payment: the ids decide, and an announced one leaves the watch at once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [knownKey]);

  // A watched payment that cannot be read (gone, or another account's) is dropped silently.
  const unreadable = left.filter((_, index) => outcomes[index]?.isError).join(',');
  useEffect(() => {
    if (!unreadable) return;
    const ids = unreadable.split(',').map(Number);
    setWatched((current) => current.filter((id) => !ids.includes(id)));
  }, [unreadable]);

  return null;
}
