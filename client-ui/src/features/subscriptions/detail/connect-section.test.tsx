import { screen } from '@testing-library/react';
import { translate } from '../../../lib/i18n/i18n';
import { useLangStore } from '../../../lib/stores/lang-store';
import {
  errorResponse,
  jsonResponse,
  makeSubscription,
  makeUser,
  mockFetch,
  renderApp,
  signInAs,
} from '../../../test/render-app';

const CONNECT = {
  siteUrl: 'https://watch.example/start',
  iosAppUrl: 'https://apps.apple.com/app/id000000001',
  androidAppUrl: 'https://play.google.com/store/apps/details?id=example.watch',
};

function renderDetail(connect: unknown) {
  const subscription = { ...makeSubscription(), connect };
  mockFetch(({ url }) => {
    if (url === '/api/users/me') return jsonResponse(200, makeUser());
    if (url === `/api/subscriptions/${subscription.id}`) return jsonResponse(200, subscription);
    return errorResponse(404, 'error.subscription.not.found', 'Subscription not found');
  });
  return renderApp(`/subscriptions/${subscription.id}`);
}

describe('subscription detail: how to connect', () => {
  it("shows the service's site with a QR code of it and both apps, opening in a new tab", async () => {
    useLangStore.getState().setLang('en');
    signInAs();
    renderDetail(CONNECT);
    const section = await screen.findByRole('region', { name: 'How to connect' });
    expect(section).toHaveTextContent(CONNECT.siteUrl);

    const qr = screen.getByRole('img', { name: translate('en', 'subscription.connect.qr') });
    expect(qr).toHaveAttribute('data-value', CONNECT.siteUrl);
    // A real code: dark modules drawn on a white quiet zone.
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M4 4h1v1h-1z/);

    const links: Array<[string, string]> = [
      [translate('en', 'subscription.connect.site'), CONNECT.siteUrl],
      [translate('en', 'subscription.connect.ios'), CONNECT.iosAppUrl],
      [translate('en', 'subscription.connect.android'), CONNECT.androidAppUrl],
    ];
    for (const [name, href] of links) {
      const link = screen.getByRole('link', { name });
      expect(link).toHaveAttribute('href', href);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('shows only the apps configured, in Hebrew, without a QR code when there is no site', async () => {
    signInAs();
    renderDetail({ siteUrl: null, iosAppUrl: CONNECT.iosAppUrl, androidAppUrl: null });
    const section = await screen.findByRole('region', { name: translate('he', 'subscription.connect.title') });
    expect(section).toHaveTextContent(translate('he', 'subscription.connect.introApps'));
    expect(screen.getByRole('link', { name: translate('he', 'subscription.connect.ios') })).toBeInTheDocument();
    expect(screen.queryByTestId('subscription-connect-qr')).not.toBeInTheDocument();
    expect(screen.queryByTestId('subscription-connect-android')).not.toBeInTheDocument();
  });

  it('shows no section when nothing is configured', async () => {
    signInAs();
    renderDetail(undefined);
    await screen.findByTestId('subscription-detail');
    expect(screen.queryByTestId('subscription-connect')).not.toBeInTheDocument();
  });
});
