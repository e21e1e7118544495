import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { CATALOGUES } from './i18n/i18n-provider';
import { applyDocumentLanguage, currentLang } from './i18n/language';

const lang = currentLang();
applyDocumentLanguage(lang);
document.title = String((CATALOGUES[lang].kupa as { app: { title: string } }).app.title);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
