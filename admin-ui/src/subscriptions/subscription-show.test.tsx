import { enumLabel, formatErrorMessage, type UserRole } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, type RecordedCall } from '../test/fetch-mock';
import { SUBSCRIPTION } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { SubscriptionShow } from './subscription-show';

const ID = SUBSCRIPTION.id;
const trial = { ...SUBSCRIPTION, paymentPlan: null, price: 0, type: 'TRIAL_FOR_NEW_USERS', isRecurrent: false };

function renderShow(subscription: object, routes: Parameters<typeof mockFetch>[0] = {}, role: UserRole = 'MANAGER') {
  signInAs(role);
  const mock = mockFetch({ [`GET /api/subscriptions/${ID}`]: () => json(200, subscription), ...routes });
  renderInAdmin(<SubscriptionShow id={ID} />, {
    resource: 'subscriptions',
    withAuth: true,
    lang: 'en',
    notifications: true,
    path: `/admin/subscriptions/${ID}/show`,
  });
  return mock;
}

const commands = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.url, call.body]);

describe("a subscription's details", () => {
  it('show its status, package, client link, login, dates, next payment and renewal flags', async () => {
    renderShow(SUBSCRIPTION);

    expect(await screen.findByText('Gold')).toBeVisible();
    expect(screen.getAllByText(enumLabel('subscriptionStatus', 'ACTIVE', 'en'))[0]).toBeVisible();
    expect(screen.getByText(enumLabel('subscriptionType', 'REGULAR', 'en'))).toBeVisible();
    expect(screen.getByTestId('subscription-user-link')).toHaveAttribute(
      'href',
      '/admin/clients/u-1/show/subscriptions',
    );
    expect(screen.getByText('dana.tv')).toBeVisible();
    for (const label of ['Next payment', 'Start', 'End', 'Recurrent package', 'Cancelled (ends at its end date)'])
      expect(screen.getByText(label)).toBeVisible();
  });

  it('show how the renewal is paid, in the label proto gives the choice', async () => {
    renderShow({ ...SUBSCRIPTION, renewalFunding: 'BALANCE_THEN_CARD' });
    expect(await screen.findByText('Renewal paid by')).toBeVisible();
    const funding = screen.getByText(enumLabel('renewalFunding', 'BALANCE_THEN_CARD', 'en'));
    expect(funding).toHaveAttribute('data-value', 'BALANCE_THEN_CARD');
  });

  it('change the login with PUT …/login and say so once the server agrees', async () => {
    const { calls } = renderShow(SUBSCRIPTION, {
      [`PUT /api/subscriptions/${ID}/login`]: () => json(200, { ...SUBSCRIPTION, login: 'dana.new' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('subscription-login'));
    const dialog = await screen.findByTestId('subscription-login-dialog');
    const input = within(dialog).getByTestId('subscription-login-input');
    expect(input).toHaveValue('dana.tv');

    await user.clear(input);
    await user.type(input, 'Bad Login');
    await user.click(within(dialog).getByTestId('subscription-login-dialog-submit'));
    expect(
      await within(dialog).findByText(formatErrorMessage('error.validation.subscription.login', 'en')),
    ).toBeVisible();
    expect(commands(calls)).toEqual([]);

    await user.clear(input);
    await user.type(input, 'dana.new');
    await user.click(within(dialog).getByTestId('subscription-login-dialog-submit'));
    expect(await screen.findByText('The login was changed')).toBeVisible();
    expect(commands(calls)).toEqual([['PUT', `/api/subscriptions/${ID}/login`, { login: 'dana.new' }]]);
  });

  it('keep the dialog open with the reason when the login is taken', async () => {
    renderShow(SUBSCRIPTION, {
      [`PUT /api/subscriptions/${ID}/login`]: () =>
        json(409, { status: 409, error: 'error.login.already.exists', message: 'taken' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('subscription-login'));
    const dialog = await screen.findByTestId('subscription-login-dialog');
    await user.clear(within(dialog).getByTestId('subscription-login-input'));
    await user.type(within(dialog).getByTestId('subscription-login-input'), 'taken.login');
    await user.click(within(dialog).getByTestId('subscription-login-dialog-submit'));
    // The HTTP client words a refusal in the page's stored language (Hebrew unless chosen), whatever the render's.
    expect(await within(dialog).findByTestId('subscription-login-dialog-error')).toHaveTextContent(
      formatErrorMessage('error.login.already.exists', 'he'),
    );
    expect(within(dialog).getByTestId('subscription-login-input')).toHaveValue('taken.login');
  });

  it('set a new password with PUT …/password from an empty field, never showing the old one', async () => {
    const { calls } = renderShow(SUBSCRIPTION, {
      [`PUT /api/subscriptions/${ID}/password`]: () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('subscription-password'));
    const dialog = await screen.findByTestId('subscription-password-dialog');
    const input = within(dialog).getByTestId('subscription-password-input');
    expect(input).toHaveValue('');
    expect(input).toHaveAttribute('type', 'password');

    await user.type(input, 'abc');
    await user.click(within(dialog).getByTestId('subscription-password-dialog-submit'));
    expect(
      await within(dialog).findByText(formatErrorMessage('error.validation.subscription.password', 'en')),
    ).toBeVisible();
    await user.type(input, 'd!9');
    await user.click(within(dialog).getByTestId('subscription-password-dialog-submit'));
    expect(await screen.findByText('The password was changed')).toBeVisible();
    expect(commands(calls)).toEqual([['PUT', `/api/subscriptions/${ID}/password`, { password: 'abcd!9' }]]);
  });

  it('cancel with DELETE only after a confirmation that says it runs to its end and can be resumed until then', async () => {
    const { calls } = renderShow(SUBSCRIPTION, {
      [`DELETE /api/subscriptions/${ID}`]: () => json(200, { ...SUBSCRIPTION, cancelAtPeriodEnd: true }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('subscription-cancel'));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Until that date it can be resumed.');
    expect(confirm).toHaveTextContent('dana.tv');
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(commands(calls)).toEqual([]);

    await user.click(screen.getByTestId('subscription-cancel'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel at its end' }));
    expect(await screen.findByText('The subscription was cancelled')).toBeVisible();
    expect(commands(calls)).toEqual([['DELETE', `/api/subscriptions/${ID}`, undefined]]);
  });

  it('show a cancelled one as cancelled, and resume it with POST …/resume after a confirmation', async () => {
    const cancelled = {
      ...SUBSCRIPTION,
      cancelAtPeriodEnd: true,
      nextPaymentDate: null,
      endDate: '2099-06-04T10:00:00.000Z',
    };
    const { calls } = renderShow(cancelled, {
      [`POST /api/subscriptions/${ID}/resume`]: () => json(200, { ...cancelled, cancelAtPeriodEnd: false }),
    });
    const user = userEvent.setup();
    expect(await screen.findByText('Cancelled, active to end')).toBeVisible();
    expect(screen.queryByTestId('subscription-cancel')).not.toBeInTheDocument();
    await user.click(await screen.findByTestId('subscription-resume'));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('The cancellation is withdrawn');
    // The end date ("4 June 2099") stands apart by no-break spaces only: the sentence never wraps inside it.
    expect(confirm.textContent).toContain('4\u00a0June\u00a02099');
    await user.click(within(confirm).getByRole('button', { name: 'Leave it cancelled' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(commands(calls)).toEqual([]);

    await user.click(screen.getByTestId('subscription-resume'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Resume' }));
    expect(await screen.findByText('The subscription was resumed')).toBeVisible();
    expect(commands(calls)).toEqual([['POST', `/api/subscriptions/${ID}/resume`, undefined]]);
  });

  it('show one in its grace window as paused, with the date it is kept until, and offer no cancellation', async () => {
    renderShow({
      ...SUBSCRIPTION,
      status: 'GRACE',
      endDate: '2026-06-04T10:00:00.000Z',
      graceEndsAt: '2026-06-07T10:00:00.000Z',
    });
    expect(await screen.findByText('Gold')).toBeVisible();
    expect(screen.getAllByText(enumLabel('subscriptionStatus', 'GRACE', 'en'))[0]).toBeVisible();
    expect(screen.getByText('Paused until')).toBeVisible();
    expect(document.body.textContent).toContain('Paused until07/06/2026');
    expect(screen.queryByTestId('subscription-cancel')).not.toBeInTheDocument();
  });

  it('offer no resumption once the end date passed: it is too late', async () => {
    renderShow({ ...SUBSCRIPTION, cancelAtPeriodEnd: true, nextPaymentDate: null, endDate: '2020-01-01T00:00:00Z' });
    expect(await screen.findByText('Gold')).toBeVisible();
    expect(screen.queryByTestId('subscription-resume')).not.toBeInTheDocument();
  });

  it('offer a trial only the password change: a trial is never cancelled nor given another login', async () => {
    renderShow(trial, {}, 'ADMIN');
    expect(await screen.findByText('Trial')).toBeVisible();
    expect(await screen.findByTestId('subscription-password')).toBeVisible();
    expect(screen.queryByTestId('subscription-login')).not.toBeInTheDocument();
    expect(screen.queryByTestId('subscription-cancel')).not.toBeInTheDocument();
  });

  it('offer no cancellation once cancelled, and no action at all once ended', async () => {
    renderShow({ ...SUBSCRIPTION, cancelAtPeriodEnd: true, status: 'CANCELED', nextPaymentDate: null });
    expect(await screen.findByText('Gold')).toBeVisible();
    for (const testId of ['subscription-login', 'subscription-password', 'subscription-cancel', 'subscription-resume'])
      expect(screen.queryByTestId(testId)).not.toBeInTheDocument();
  });

  it('let an admin add days with a reason, checked first, sent once with an Idempotency-Key', async () => {
    const { calls } = renderShow(
      SUBSCRIPTION,
      { [`POST /api/subscriptions/${ID}/extension`]: () => json(200, SUBSCRIPTION) },
      'ADMIN',
    );
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('subscription-extend'));
    const dialog = await screen.findByTestId('subscription-extend-dialog');
    await user.type(within(dialog).getByTestId('subscription-extend-days'), '400');
    await user.click(within(dialog).getByTestId('subscription-extend-submit'));
    expect(
      await within(dialog).findByText(formatErrorMessage('error.validation.max', 'en', { max: 366 })),
    ).toBeVisible();
    expect(within(dialog).getByText(formatErrorMessage('error.validation.blank', 'en'))).toBeVisible();
    expect(commands(calls)).toEqual([]);

    await user.clear(within(dialog).getByTestId('subscription-extend-days'));
    await user.type(within(dialog).getByTestId('subscription-extend-days'), '2');
    await user.type(within(dialog).getByTestId('subscription-extend-reason'), 'Outage on Sunday');
    await user.click(within(dialog).getByTestId('subscription-extend-submit'));
    expect(await screen.findByText('2 days were added')).toBeVisible();
    expect(commands(calls)).toEqual([
      ['POST', `/api/subscriptions/${ID}/extension`, { days: 2, reason: 'Outage on Sunday' }],
    ]);
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('offer adding days to admins only, and not before the period starts or after the end', async () => {
    renderShow(SUBSCRIPTION);
    expect(await screen.findByText('Gold')).toBeVisible();
    expect(screen.queryByTestId('subscription-extend')).not.toBeInTheDocument();
  });

  it('offer no days to add to a PENDING subscription, even to an admin', async () => {
    renderShow({ ...SUBSCRIPTION, status: 'PENDING' }, {}, 'ADMIN');
    expect(await screen.findByText('Gold')).toBeVisible();
    expect(screen.queryByTestId('subscription-extend')).not.toBeInTheDocument();
  });
});
