import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, type Payment } from '@kupa/proto';
import { translate } from '../lib/i18n/i18n';
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
} from '../test/render-app';

const ROWS: Payment[] = [makePayment({ paymentId: 7 }), makePayment({ paymentId: 6 })];

function mockApi() {
  return mockFetch(({ url }) => {
    if (url === '/api/users/me') return jsonResponse(200, makeUser());
    if (url === '/api/payments/search') return jsonResponse(200, pageOf(ROWS));
    return jsonResponse(404, { status: 404, error: 'error.entity.not.found', message: '' });
  });
}

/** The payments list's searches, not the app-wide watch of pending deposits. */
const searches = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url === '/api/payments/search' && !isDepositWatch(call));

async function openHelp() {
  signInAs();
  const api = mockApi();
  const view = renderApp('/help');
  expect(await screen.findByRole('heading', { level: 1, name: translate('he', 'help.title') })).toBeInTheDocument();
  expect(searches(api.calls)).toHaveLength(0);
  return { ...api, ...view };
}

describe('link preload on intent', () => {
  it('starts loading the payments list when its sidebar entry is hovered, and opens it from that load', async () => {
    const { calls, history } = await openHelp();
    const user = userEvent.setup();

    await user.hover(screen.getByTestId('nav-payments'));
    await waitFor(() => expect(searches(calls)).toHaveLength(1));
    expect(searches(calls)[0].body).toEqual({ page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }] });
    expect(history.location.pathname).toBe('/help');

    await user.click(screen.getByTestId('nav-payments'));
    expect(await screen.findAllByTestId('payments-row')).toHaveLength(2);
    expect(history.location.pathname).toBe('/payments');
    expect(searches(calls)).toHaveLength(1);
  });

  it('starts loading when the entry receives keyboard focus', async () => {
    const { calls, history } = await openHelp();
    act(() => screen.getByTestId('nav-payments').focus());
    await waitFor(() => expect(searches(calls)).toHaveLength(1));
    expect(history.location.pathname).toBe('/help');
  });

  it('lets the list screen read the request its loader started, also when that request fails', async () => {
    signInAs();
    const { calls } = mockFetch(({ url }) =>
      url === '/api/payments/search'
        ? errorResponse(500, 'error.internal.server.error')
        : jsonResponse(200, makeUser()),
    );
    renderApp('/payments');
    expect(await screen.findByTestId('payments-error')).toHaveTextContent(
      formatErrorMessage('error.internal.server.error', 'he'),
    );
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 300)));
    expect(searches(calls)).toHaveLength(1);
  });
});
