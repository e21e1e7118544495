import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './lib/api/query-client';
import { prepareFormatters } from './lib/format';
import { applyDocumentLanguage } from './lib/i18n/i18n';
import { reloadOnce } from './lib/reload-once';
import { currentLang } from './lib/stores/lang-store';

applyDocumentLanguage();

// Vite reports a preload that failed (typically a chunk removed by a newer deploy); one reload picks up the new build.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault();
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <App queryClient={createQueryClient()} />
    </StrictMode>,
  );
});
// The formatters' locale data loads while the first screen waits for its data, not inside its render.
prepareFormatters(currentLang());
