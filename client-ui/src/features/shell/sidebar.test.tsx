import { screen, within } from '@testing-library/react';
import { translate } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import { jsonResponse, makeDictionaries, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

const SITE = 'https://watch.example/start';

/** A signed-in client whose deployment publishes `streamingSiteUrl` (null: none configured). */
function mockDeployment(streamingSiteUrl: string | null) {
  signInAs();
  mockFetch(({ url }) =>
    url === '/api/dictionaries'
      ? jsonResponse(200, { ...makeDictionaries(), streamingSiteUrl })
      : jsonResponse(200, makeUser()),
  );
}

describe('the sidebar link to the streaming service', () => {
  it('opens the configured site in a new tab, named in the page language', async () => {
    mockDeployment(SITE);
    renderApp('/help');

    const link = await screen.findByTestId('nav-service-site');
    expect(link).toHaveAttribute('href', SITE);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(link).toHaveTextContent(translate('he', 'nav.serviceSite'));
    // It sits in the navigation, after the way out.
    const navigation = screen.getByRole('navigation', { name: translate('he', 'nav.label') });
    expect(within(navigation).getByTestId('nav-service-site')).toBe(link);
    expect(
      within(navigation).getByTestId('logout').compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('is not there when the deployment configures no site, rather than linking a made-up one', async () => {
    useLangStore.getState().setLang('en');
    mockDeployment(null);
    renderApp('/help');

    // The help page's contacts come with the same answer: once they show, the sidebar has read it too.
    await screen.findByTestId('support-telegram');
    expect(screen.getByTestId('logout')).toHaveTextContent(translate('en', 'nav.logout'));
    expect(screen.queryByTestId('nav-service-site')).not.toBeInTheDocument();
    expect(screen.queryByText(translate('en', 'nav.serviceSite'))).not.toBeInTheDocument();
  });
});
