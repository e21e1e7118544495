import { DEFAULT_LANGUAGE, isOneOf, type Language, LANGUAGES } from '@kupa/proto';
import { escapeHtml } from './html';

/** A sandbox page's language from its `?lang=` query: Hebrew, the default, unless English is asked for. */
export function sandboxPageLanguage(value: unknown): Language {
  return isOneOf(LANGUAGES, value) ? value : DEFAULT_LANGUAGE;
}

export interface SandboxPage {
  lang: Language;
  /** Plain text: the page's title and heading. */
  title: string;
  /** HTML: what follows the title in the heading (an invoice id), or nothing. */
  titleSuffixHtml?: string;
  /** Plain text: the loud notice that this is a test page where no real money moves. */
  notice: string;
  /** The same page in the other language, and that language's name as its link reads. */
  otherLanguage: { href: string; label: string };
  /** HTML: the page's facts, each a `<dt>…</dt><dd>…</dd>` pair. */
  factsHtml: string;
  /** HTML: the page's buttons and links. */
  actionsHtml: string;
}

/**
 * The frame of the sandboxes' pages (the cashier's invoice, the card's checkout; docs/adr/0055-sandboxes-only-on-demand.md):
 * plain server-rendered HTML with no script (our security headers forbid inline scripts, and the pages need none),
 * right to left in Hebrew, readable in dark mode, never indexed, with a notice that nobody can miss.
 */
export function renderSandboxPage(page: SandboxPage): string {
  const title = escapeHtml(page.title);
  return `<!doctype html>
<html lang="${page.lang}" dir="${page.lang === 'he' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
.notice{background:#fff4e5;border:1px solid #f0b35e;color:#5c3b00;padding:.75rem;border-radius:.5rem;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.buttons{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:1rem 0}form{margin:0}
button,.button{font-size:1rem;padding:.5rem 1rem;min-height:44px;box-sizing:border-box;display:inline-flex;align-items:center}
.button{border:1px solid #888;border-radius:.25rem;color:inherit;text-decoration:none}
@media (prefers-color-scheme:dark){body{background:#121212;color:#eee}a{color:#8ab4f8}.notice{background:#3a2a10;color:#ffdca8;border-color:#b27b2a}}
</style>
</head>
<body>
<p><a href="${escapeHtml(page.otherLanguage.href)}" lang="${page.lang === 'he' ? 'en' : 'he'}">${escapeHtml(page.otherLanguage.label)}</a></p>
<h1>${title}${page.titleSuffixHtml ? ` ${page.titleSuffixHtml}` : ''}</h1>
<p class="notice" role="alert">${escapeHtml(page.notice)}</p>
<dl>
${page.factsHtml}
</dl>
<div class="buttons">${page.actionsHtml}</div>
</body>
</html>`;
}
