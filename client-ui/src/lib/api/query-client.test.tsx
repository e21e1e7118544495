import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage } from '@kupa/proto';
import { translate } from '../i18n/i18n';
import { useToastStore } from '../toast/toast-store';
import { ApiError } from './api-error';
import { createQueryClient } from './query-client';
import {
  errorResponse,
  jsonResponse,
  makePayment,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
  isDepositWatch,
} from '../../test/render-app';

/** The payments list's searches, not the app-wide watch of pending deposits. */
const searches = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url === '/api/payments/search' && !isDepositWatch(call));

/** Lets a second request, if the app were to send one, reach the network edge before the calls are counted. */
const settle = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

describe('query client defaults', () => {
  it('keeps data fresh for 60 seconds and retries neither queries nor mutations', () => {
    // The factory main.tsx starts the app with (and renderApp, which the other tests here go through).
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(60_000);
    expect(defaults.queries?.retry).toBe(false);
    expect(defaults.mutations?.retry).toBe(false);
  });

  it('asks for a failing query exactly once', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/payments/42' ? errorResponse(500, 'error.internal.server.error') : jsonResponse(200, makeUser()),
    );
    renderApp('/payments/42');
    // With the library's default of three retries the error would only show after seconds of back-off.
    expect(await screen.findByTestId('payment-detail-error')).toHaveTextContent(
      formatErrorMessage('error.internal.server.error', 'he'),
    );
    await settle(300);
    expect(calls.filter((call) => call.url === '/api/payments/42')).toHaveLength(1);
  });

  it('sends a failing mutation exactly once', async () => {
    const { calls } = mockFetch(() => errorResponse(500, 'error.internal.server.error'));
    const user = userEvent.setup();
    renderApp('/set-password/tok-1');
    await user.type(await screen.findByTestId('set-password-password'), 'Secret#123');
    await user.type(screen.getByTestId('set-password-confirm'), 'Secret#123');
    await user.click(screen.getByTestId('set-password-submit'));
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      formatErrorMessage('error.internal.server.error', 'he'),
    );
    await settle(300);
    expect(calls.filter((call) => call.url === '/api/password/token')).toHaveLength(1);
  });

  it('closes the error toast of a mutation once its retry succeeds', async () => {
    let failures = 1;
    mockFetch(() => (failures-- > 0 ? errorResponse(500, 'error.internal.server.error') : jsonResponse(204)));
    const user = userEvent.setup();
    renderApp('/set-password/tok-1');
    await user.type(await screen.findByTestId('set-password-password'), 'Secret#123');
    await user.type(screen.getByTestId('set-password-confirm'), 'Secret#123');
    await user.click(screen.getByTestId('set-password-submit'));
    expect(await screen.findByTestId('toast')).toHaveTextContent(
      formatErrorMessage('error.internal.server.error', 'he'),
    );

    await user.click(screen.getByTestId('set-password-submit'));
    await waitFor(() => expect(screen.queryByTestId('toast')).toBeNull());
  });

  it("closes a query's error toast when the same query later succeeds, and leaves other toasts alone", async () => {
    const client = createQueryClient();
    const failure = () =>
      Promise.reject(new ApiError(500, { status: 500, error: 'error.internal.server.error', message: '' }));
    await client.fetchQuery({ queryKey: ['balance'], queryFn: failure }).catch(() => undefined);
    await client.fetchQuery({ queryKey: ['payments'], queryFn: failure }).catch(() => undefined);
    // The same failure again replaces its toast rather than stacking a copy.
    await client.fetchQuery({ queryKey: ['balance'], queryFn: failure }).catch(() => undefined);
    expect(useToastStore.getState().toasts).toHaveLength(2);

    await client.fetchQuery({ queryKey: ['balance'], queryFn: async () => 10 });
    expect(useToastStore.getState().toasts.map((toast) => toast.source)).toEqual(['query:["payments"]']);
  });

  it('serves a screen from the cache for 60 seconds and asks again after that', async () => {
    // Only the clock is fake: the query cache reads it to judge freshness, while timers keep running for the UI.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-01T10:00:00.000Z') });
    const loadedAt = Date.now();
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/payments/search' ? jsonResponse(200, pageOf([makePayment()])) : jsonResponse(200, makeUser()),
    );
    const { history } = renderApp('/payments');
    expect(await screen.findAllByTestId('payments-row')).toHaveLength(1);
    expect(searches(calls)).toHaveLength(1);

    const revisit = async () => {
      act(() => history.push('/help'));
      expect(await screen.findByRole('heading', { level: 1, name: translate('he', 'help.title') })).toBeInTheDocument();
      act(() => history.push('/payments'));
      expect(await screen.findAllByTestId('payments-row')).toHaveLength(1);
    };

    vi.setSystemTime(loadedAt + 59_999);
    await revisit();
    await settle(100);
    expect(searches(calls)).toHaveLength(1);

    vi.setSystemTime(loadedAt + 60_000);
    await revisit();
    await waitFor(() => expect(searches(calls)).toHaveLength(2));
  });
});
