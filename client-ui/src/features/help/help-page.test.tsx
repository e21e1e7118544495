import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SupportContacts } from '@kupa/proto';
import { DICTIONARIES_QUERY_KEY } from '../../lib/api/use-support-contacts';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import {
  jsonResponse,
  makeDictionaries,
  makeUser,
  mockFetch,
  renderApp,
  signInAs,
  SUPPORT_CONTACTS,
} from '../../test/render-app';

function mockHelpApi(support: SupportContacts) {
  return mockFetch(({ url }) =>
    url === '/api/dictionaries' ? jsonResponse(200, makeDictionaries(support)) : jsonResponse(200, makeUser()),
  );
}

describe('help', () => {
  it('answers the common questions and offers the configured contacts, in Hebrew', async () => {
    signInAs();
    mockHelpApi(SUPPORT_CONTACTS);
    const user = userEvent.setup();
    renderApp('/help');

    const contacts = await screen.findByTestId('help-contacts');
    expect(within(contacts).getByTestId('support-telegram')).toHaveAttribute('href', SUPPORT_CONTACTS.telegram);
    expect(within(contacts).getByTestId('support-telegram')).toHaveAttribute('target', '_blank');
    expect(within(contacts).getByTestId('support-email')).toHaveAttribute('href', `mailto:${SUPPORT_CONTACTS.email}`);
    expect(screen.getAllByTestId('faq-item')).toHaveLength(7);
    for (const question of ['help.q.topUp', 'help.q.buy', 'help.q.renew', 'help.q.cancel', 'help.q.contact'] as const) {
      expect(screen.getByRole('heading', { level: 3, name: translate('he', question) })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: translate('he', 'help.q.trial') }));
    expect(await screen.findByText(translate('he', 'help.a.trial', { days: 3 }))).toBeVisible();
  });

  it('leaves out a contact that is not configured, in English', async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    mockHelpApi({ telegram: null, email: 'help@kupa.example' });
    renderApp('/help');
    const contacts = await screen.findByTestId('help-contacts');
    expect(within(contacts).getByRole('heading', { name: 'Contact support' })).toBeInTheDocument();
    expect(within(contacts).getByTestId('support-email')).toHaveTextContent('Email: help@kupa.example');
    expect(within(contacts).queryByTestId('support-telegram')).toBeNull();
    expect(screen.getByRole('heading', { level: 3, name: 'How do I top up my balance?' })).toBeInTheDocument();
  });

  it('shows no contact section when no contact is configured', async () => {
    signInAs();
    mockHelpApi({ telegram: null, email: null });
    const { queryClient } = renderApp('/help');
    expect(await screen.findAllByTestId('faq-item')).toHaveLength(7);
    // The contacts have arrived (both null) before their absence is checked.
    await waitFor(() => expect(queryClient.getQueryData(DICTIONARIES_QUERY_KEY)).toBeDefined());
    expect(screen.queryByTestId('help-contacts')).toBeNull();
    expect(screen.queryByTestId('support-telegram')).toBeNull();
    expect(screen.queryByTestId('support-email')).toBeNull();
  });
});
