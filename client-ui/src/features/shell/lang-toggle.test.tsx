import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { browser } from '../../lib/browser';
import { applyDocumentLanguage } from '../../lib/i18n/i18n';
import { useLangStore } from '../../lib/stores/lang-store';
import { jsonResponse, makeUser, mockFetch, renderApp, signInAs } from '../../test/render-app';

describe('language toggle', () => {
  it('stores the choice, reloads, and the next start renders English left-to-right', async () => {
    mockFetch(() => jsonResponse(204));
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => undefined);
    const user = userEvent.setup();
    applyDocumentLanguage();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');

    const first = renderApp('/login');
    const toggle = await screen.findByTestId('lang-toggle');
    // Named by what it shows, the other language's own name; the page's language explains it.
    expect(toggle).toHaveAccessibleName('English');
    expect(toggle).toHaveAccessibleDescription('החלפת השפה לאנגלית');
    await user.click(toggle);

    expect(reload).toHaveBeenCalledTimes(1);
    expect(JSON.parse(localStorage.getItem('lang') ?? '{}').state.lang).toBe('en');

    // What the reload does: the app starts again from storage.
    first.unmount();
    await useLangStore.persist.rehydrate();
    applyDocumentLanguage();
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByTestId('lang-toggle')).toHaveAccessibleName('עברית');
    expect(screen.getByTestId('lang-toggle')).toHaveAccessibleDescription('Switch the language to Hebrew');
  });

  it('keeps the language and shows the usual error toast when English fails to load', async () => {
    // A fresh app, as a page starts with only Hebrew, whose English chunk cannot be fetched.
    vi.resetModules();
    vi.doMock('../../lib/i18n/en', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    try {
      const { LangToggle } = await import('./lang-toggle');
      const fresh = {
        browser: (await import('../../lib/browser')).browser,
        lang: (await import('../../lib/stores/lang-store')).useLangStore,
        toasts: (await import('../../lib/toast/toast-store')).useToastStore,
      };
      const reload = vi.spyOn(fresh.browser, 'reload').mockImplementation(() => undefined);
      const user = userEvent.setup();
      render(<LangToggle />);
      await user.click(screen.getByTestId('lang-toggle'));

      await vi.waitFor(() => expect(fresh.toasts.getState().toasts).toHaveLength(1));
      expect(fresh.toasts.getState().toasts[0]).toMatchObject({ severity: 'error', title: 'הפעולה נכשלה' });
      expect(fresh.lang.getState().lang).toBe('he');
      expect(localStorage.getItem('lang')).not.toContain('"en"');
      expect(reload).not.toHaveBeenCalled();
      expect(screen.getByTestId('lang-toggle')).toHaveAccessibleName('English');
    } finally {
      vi.doUnmock('../../lib/i18n/en');
      vi.resetModules();
    }
  });

  it('switches the theme and stores it under ui-theme', async () => {
    signInAs();
    mockFetch(() => jsonResponse(200, makeUser()));
    const user = userEvent.setup();
    renderApp('/help');
    const switcher = await screen.findByTestId('theme-toggle');
    expect(switcher).toHaveAccessibleName('ערכת נושא');
    expect(screen.getByRole('button', { name: 'לפי המערכת' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'כהה' }));
    expect(localStorage.getItem('ui-theme')).toBe('dark');
    expect(screen.getByRole('button', { name: 'כהה' })).toHaveAttribute('aria-pressed', 'true');
  });
});
