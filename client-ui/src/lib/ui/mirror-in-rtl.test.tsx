import { screen } from '@testing-library/react';
import { useLangStore } from '../stores/lang-store';
import { jsonResponse, makeDictionaries, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

/** The transform the page's styles give the icon inside the element with this test id. */
async function iconTransform(testId: string): Promise<string> {
  const icon = (await screen.findByTestId(testId)).querySelector('svg');
  if (!icon) throw new Error(`no icon inside ${testId}`);
  return window.getComputedStyle(icon).transform;
}

describe('directional icons', () => {
  beforeEach(() => {
    signInAs();
    mockFetch(({ url }) => {
      if (url === '/api/users/me') return jsonResponse(200, makeUser());
      // A deployment with a streaming site, so that the sidebar shows its outward link.
      if (url === '/api/dictionaries')
        return jsonResponse(200, { ...makeDictionaries(), streamingSiteUrl: 'https://watch.example/start' });
      return jsonResponse(204);
    });
  });

  it('point the other way on a Hebrew page', async () => {
    renderApp('/help');
    expect(await iconTransform('logout')).toBe('scaleX(-1)');
    expect(await iconTransform('nav-service-site')).toBe('scaleX(-1)');
  });

  it('keep their drawn direction on an English page', async () => {
    useLangStore.getState().setLang('en');
    renderApp('/help');
    expect(await iconTransform('logout')).not.toBe('scaleX(-1)');
  });
});
