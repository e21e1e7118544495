import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient, notifyError } from './lib/api/query-client';
import { prepareFormatters } from './lib/format';
import { applyDocumentLanguage, loadLanguage } from './lib/i18n/i18n';
import { reloadOnce } from './lib/reload-once';
import { currentLang, useLangStore } from './lib/stores/lang-store';

// Vite reports a preload that failed (typically a chunk removed by a newer deploy); one reload picks up the new build.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault();
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

/**
 * Only Hebrew ships with the first screen; a stored English is loaded before the first render, so the first paint is
 * already English (docs/adr/0048-first-screen-in-one-chunk.md). If it cannot load, the portal starts in Hebrew and
 * says so rather than showing no page.
 */
async function start(rootElement: HTMLElement): Promise<void> {
  let languageError: unknown = null;
  try {
    await loadLanguage(currentLang());
  } catch (error) {
    languageError = error;
    useLangStore.getState().setLang('he');
  }
  applyDocumentLanguage();
  const reactRoot = createRoot(rootElement);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App queryClient={createQueryClient()} />
      </StrictMode>,
    );
  });
  if (languageError) notifyError(languageError);
  // The formatters' locale data loads while the first screen waits for its data, not inside its render.
  prepareFormatters(currentLang());
}

void start(root);
