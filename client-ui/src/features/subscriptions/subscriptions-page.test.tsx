import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatErrorMessage, type Subscription, type User } from '@kupa/proto';
import { formatDate } from '../../lib/format';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import { fillCredentials } from '../../test/credentials';
import {
  CLIENT_SESSION,
  errorResponse,
  jsonResponse,
  makeSubscription,
  makeUser,
  mockFetch,
  pageOf,
  renderApp,
  signInAs,
  type RecordedCall,
} from '../../test/render-app';

const TRIAL = makeSubscription({
  id: '5d2e8f10-0000-4000-8000-0000000000c2',
  type: 'TRIAL_FOR_NEW_USERS',
  paymentPlan: null,
  price: 0,
  isRecurrent: false,
  nextPaymentDate: null,
  login: 'dana.trial',
  status: 'PENDING',
  startDate: null,
  endDate: null,
});

type Answer = (call: RecordedCall) => Response | Promise<Response>;

/** A client whose user record is `user()` at each call, holding `subscriptions`; `trial` answers the trial's calls. */
function mockSubscriptionsApi(
  options: { user?: () => Partial<User>; subscriptions?: Subscription[]; trial?: Answer; reject?: Answer } = {},
) {
  const user = options.user ?? (() => ({ trialUsed: true }));
  return mockFetch(async (call) => {
    if (call.url === '/api/users/me') return jsonResponse(200, makeUser(user()));
    if (call.url === '/api/subscriptions/search') return jsonResponse(200, pageOf(options.subscriptions ?? []));
    if (call.url === `/api/subscriptions/users/${CLIENT_SESSION.userUuid}/trial`)
      return (options.trial ?? (() => jsonResponse(201, TRIAL)))(call);
    if (call.url === '/api/users/trial-reject') return (options.reject ?? (() => jsonResponse(204)))(call);
    if (call.url === `/api/subscriptions/${TRIAL.id}`) return jsonResponse(200, TRIAL);
    if (call.url === '/api/payment-plans/search') return jsonResponse(200, pageOf([]));
    return errorResponse(404, 'error.entity.not.found');
  });
}

describe('subscriptions page', () => {
  it('tells a client without subscriptions what to do, and links to the packages', async () => {
    signInAs();
    mockSubscriptionsApi();
    const user = userEvent.setup();
    const { history } = renderApp('/subscriptions');

    expect(await screen.findByTestId('empty-state')).toHaveTextContent(translate('he', 'subscriptions.empty'));
    const link = screen.getByTestId('subscriptions-to-packages');
    expect(link).toHaveAttribute('href', '/packages');
    expect(link).toHaveTextContent(translate('he', 'subscriptions.toPackages'));
    await user.click(link);
    await waitFor(() => expect(history.location.pathname).toBe('/packages'));
  });

  it('lists the subscriptions with package or trial, status, dates, next payment and login', async () => {
    signInAs();
    const regular = makeSubscription();
    const expired = makeSubscription({
      id: '5d2e8f10-0000-4000-8000-0000000000c3',
      status: 'EXPIRED',
      paymentPlan: { planId: 'p2', planName: 'Yearly' },
      nextPaymentDate: null,
    });
    const { calls } = mockSubscriptionsApi({ subscriptions: [regular, TRIAL, expired] });
    renderApp('/subscriptions');

    const rows = await screen.findAllByTestId('subscriptions-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]).getByTestId('subscriptions-row-name')).toHaveTextContent('Monthly HD');
    expect(within(rows[0]).getByTestId('subscriptions-row-status')).toHaveTextContent('פעיל');
    expect(within(rows[0]).getByTestId('subscriptions-row-status')).toHaveAttribute('data-intent', 'success');
    expect(rows[0].textContent).toContain(formatDate(regular.startDate ?? '', 'he'));
    expect(rows[0].textContent).toContain(formatDate(regular.endDate ?? '', 'he'));
    expect(rows[0].textContent).toContain(formatDate(regular.nextPaymentDate ?? '', 'he'));
    expect(rows[0]).toHaveTextContent('dana.levi');
    expect(within(rows[0]).getByTestId('subscriptions-row-link')).toHaveAttribute(
      'href',
      `/subscriptions/${regular.id}`,
    );
    expect(within(rows[1]).getByTestId('subscriptions-row-name')).toHaveTextContent(
      translate('he', 'subscriptions.trial'),
    );
    expect(within(rows[1]).getByTestId('subscriptions-row-status')).toHaveAttribute('data-intent', 'warning');
    expect(within(rows[2]).getByTestId('subscriptions-row-status')).toHaveAttribute('data-intent', 'neutral');
    expect(calls.find((call) => call.url === '/api/subscriptions/search')?.body).toMatchObject({
      sorts: [{ id: 'createdAt', desc: true }],
    });
  });

  it('speaks English when the language store says en', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockSubscriptionsApi({ subscriptions: [makeSubscription()] });
    renderApp('/subscriptions');
    const table = await screen.findByRole('table', { name: 'Your subscriptions' });
    expect(within(table).getByRole('columnheader', { name: 'Next payment' })).toBeInTheDocument();
    expect(within(table).getByTestId('subscriptions-row-status')).toHaveTextContent('Active');
  });
});

describe('trial offer', () => {
  it('starts the trial with a login and a password and opens it while it is set up', async () => {
    signInAs();
    let trialUsed = false;
    const { calls } = mockSubscriptionsApi({
      user: () => ({ trialUsed }),
      trial: () => {
        trialUsed = true;
        return jsonResponse(201, TRIAL);
      },
    });
    const user = userEvent.setup();
    const { history } = renderApp('/subscriptions');

    const offer = await screen.findByTestId('trial-offer');
    for (const rule of ['trial.rule.once', 'trial.rule.noCancel', 'trial.rule.loginFixed'] as const) {
      expect(offer).toHaveTextContent(translate('he', rule));
    }
    expect(offer).toHaveTextContent(translate('he', 'trial.rule.days', { days: 3 }));
    await user.click(within(offer).getByTestId('trial-take'));
    const dialog = await screen.findByTestId('trial-dialog');
    expect(within(dialog).getByTestId('trial-rules')).toBeInTheDocument();

    await fillCredentials(user, 'trial', { login: 'Dana', password: 'pass' });
    expect(
      within(dialog).getByText(formatErrorMessage('error.validation.subscription.login', 'he')),
    ).toBeInTheDocument();
    await fillCredentials(user, 'trial', { login: 'dana.trial', password: 'pass' });

    await waitFor(() => expect(history.location.pathname).toBe(`/subscriptions/${TRIAL.id}`), { timeout: 15_000 });
    const trials = calls.filter((call) => call.url.endsWith('/trial'));
    expect(trials).toHaveLength(1);
    expect(trials[0]).toMatchObject({
      method: 'POST',
      url: `/api/subscriptions/users/${CLIENT_SESSION.userUuid}/trial`,
      body: { login: 'dana.trial', password: 'pass' },
    });
    expect(await screen.findByTestId('subscription-trial-notice', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('trial-offer')).toBeNull();
  });

  it('declines the trial after a confirmation that says it cannot be taken later, and stops offering it', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    let trialRejected = false;
    const { calls } = mockSubscriptionsApi({
      user: () => ({ trialRejected }),
      reject: () => {
        trialRejected = true;
        return jsonResponse(204);
      },
    });
    const user = userEvent.setup();
    renderApp('/subscriptions');

    await user.click(await screen.findByTestId('trial-decline'));
    const dialog = await screen.findByTestId('trial-decline-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Decline the trial?' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('If you decline now, you cannot take a trial later.');
    // Going back changes nothing.
    await user.click(within(dialog).getByTestId('trial-decline-cancel'));
    await waitFor(() => expect(screen.queryByTestId('trial-decline-dialog')).toBeNull());
    expect(calls.filter((call) => call.url === '/api/users/trial-reject')).toHaveLength(0);

    await user.click(screen.getByTestId('trial-decline'));
    await user.click(await screen.findByTestId('trial-decline-confirm'));

    await waitFor(() => expect(screen.queryByTestId('trial-offer')).toBeNull());
    const rejects = calls.filter((call) => call.url === '/api/users/trial-reject');
    expect(rejects).toHaveLength(1);
    expect(rejects[0]).toMatchObject({ method: 'PUT', body: undefined });
    expect(await screen.findByTestId('toast')).toHaveTextContent('You declined the trial.');
  });

  it('is not offered to a user who already bought a package, though the user record still allows it', async () => {
    signInAs();
    const { calls } = mockSubscriptionsApi({
      user: () => ({ trialUsed: false, trialRejected: false }),
      subscriptions: [makeSubscription({ status: 'ACTIVE' })],
    });
    renderApp('/subscriptions');
    await waitFor(() =>
      expect(calls.some((call) => (call.body as { types?: string[] })?.types?.includes('REGULAR'))).toBe(true),
    );
    expect(await screen.findAllByTestId('subscriptions-row')).not.toHaveLength(0);
    expect(screen.queryByTestId('trial-offer')).toBeNull();
  });

  it('is not offered to a user who took or declined it', async () => {
    signInAs();
    mockSubscriptionsApi({ user: () => ({ trialRejected: true }) });
    renderApp('/subscriptions');
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
    expect(screen.queryByTestId('trial-offer')).toBeNull();
  });
});
