import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './lib/api/query-client';
import { applyDocumentLanguage } from './lib/i18n/i18n';
import { reloadOnce } from './lib/reload-once';

applyDocumentLanguage();

// Vite reports a preload that failed (typically a chunk removed by a newer deploy); one reload picks up the new build.
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnce()) event.preventDefault();
});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <App queryClient={createQueryClient()} />
  </StrictMode>,
);
