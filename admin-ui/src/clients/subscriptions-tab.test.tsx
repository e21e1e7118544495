import { enumLabel } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT, SUBSCRIPTION } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { SubscriptionsTab } from './subscriptions-tab';

const page = (content: unknown[]) =>
  json(200, { content, page: 0, size: 20, totalElements: content.length, totalPages: 1 });

function renderTab(onLocation: (path: string) => void = () => undefined) {
  signInAs('MANAGER');
  return renderInAdmin(<SubscriptionsTab />, {
    resource: 'clients',
    record: CLIENT,
    withAuth: true,
    path: '/admin/clients/u-1/show/subscriptions',
    onLocation,
  });
}

describe("a client's subscriptions tab", () => {
  it("lists the client's own subscriptions, newest first, and opens one's details for a manager too", async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => page([SUBSCRIPTION]) });
    let location = '';
    renderTab((path) => (location = path));

    const [row] = await screen.findAllByTestId('client-subscriptions-row');
    expect(within(row).getByText('Gold')).toBeVisible();
    expect(within(row).getByText(enumLabel('subscriptionStatus', 'ACTIVE', 'he'))).toBeVisible();
    // Every row is this client's: no client column.
    expect(within(row).queryByText('dana@example.com')).not.toBeInTheDocument();
    expect(calls.find((call) => call.url === '/api/subscriptions/search')?.body).toEqual({
      page: 0,
      size: 20,
      sorts: [{ id: 'createdAt', desc: true }],
      userUuid: 'u-1',
    });

    await userEvent.setup().click(within(row).getByText('Gold'));
    await waitFor(() => expect(location).toBe(`/admin/subscriptions/${SUBSCRIPTION.id}/show`));
  });

  it('says so when the client has none', async () => {
    mockFetch({ 'POST /api/subscriptions/search': () => page([]) });
    renderTab();
    expect(await screen.findByTestId('client-subscriptions-empty')).toHaveTextContent('ללקוח הזה אין עדיין מנויים.');
  });
});
