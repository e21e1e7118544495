import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadCatalogue } from './i18n/catalogue';
import { applyDocumentLanguage, currentLang } from './i18n/language';
import { createTranslate, type Text } from './i18n/text';
import { session } from './providers/session';
import { SignInScreen } from './sign-in/sign-in-screen';

/** react-admin's own login route; after signing in from it the console opens at its start instead. */
const LOGIN_PATH = '/admin/login';

const lang = currentLang();
applyDocumentLanguage(lang);

const element = document.getElementById('root');
if (!element) throw new Error('The page has no #root element');
const root = createRoot(element);

/**
 * The console (react-admin and every screen) loads only for a signed-in user; a signed-out one gets the sign-in screen
 * alone first, which is most of the weight a first visit saves
 * (docs/adr/0044-console-signs-in-before-loading-react-admin.md).
 */
async function openConsole(): Promise<void> {
  if (window.location.pathname === LOGIN_PATH) window.history.replaceState(null, '', '/admin/');
  const { App } = await import('./app');
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void loadCatalogue(lang).then((messages) => {
  const text: Text = { lang, translate: createTranslate(messages) };
  document.title = text.translate('kupa.app.title');
  if (session.get()) {
    void openConsole();
    return;
  }
  root.render(
    <StrictMode>
      <SignInScreen text={text} onSignedIn={() => void openConsole()} />
    </StrictMode>,
  );
});
