import { type Language, LANGUAGE_LOCALES, SANDBOX_CHECKOUT_SIGNATURE_PARAM } from '@kupa/proto';
import type { CheckoutSessionWire } from './checkout-session';

const TEXT = {
  title: { he: 'תשלום בכרטיס לניסוי', en: 'Sandbox card checkout' },
  notice: {
    he: 'זהו דף תשלום לניסוי, לא Stripe. שום כרטיס אמיתי לא מחויב ושום פרטי כרטיס לא נדרשים: הכפתור "שלם" מדמה תשלום שהצליח.',
    en: 'This is a sandbox checkout page, not Stripe. No real card is charged and no card details are asked for: Pay plays a payment that succeeded.',
  },
  product: { he: 'מוצר', en: 'Product' },
  amount: { he: 'סכום', en: 'Amount' },
  email: { he: 'אימייל', en: 'Email' },
  status: { he: 'סטטוס', en: 'Status' },
  open: { he: 'ממתין לתשלום', en: 'Waiting for payment' },
  paid: { he: 'שולם', en: 'Paid' },
  expired: { he: 'פג תוקף', en: 'Expired' },
  pay: { he: 'שלם', en: 'Pay' },
  cancel: { he: 'ביטול', en: 'Cancel' },
  back: { he: 'חזרה ל-Kupa', en: 'Back to Kupa' },
  otherLanguage: { he: 'English', en: 'עברית' },
} as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The sandbox card's checkout page (docs/adr/0080-sandbox-card-checkout.md): plain server-rendered HTML, no script
 * (our security headers forbid inline scripts, and the page needs none), in Hebrew (right to left) or English. It
 * says loudly that it is a test page and has no card field at all: Pay is a form posting to the pay route, which
 * answers the browser with a redirect to the session's success address; Cancel is a link to its cancel address.
 */
export function renderSandboxCheckoutPage(
  session: CheckoutSessionWire,
  productName: string,
  lang: Language,
  link: { path: string; signature: string },
): string {
  const href = (suffix: string, language: Language) =>
    `${link.path}${suffix}?${new URLSearchParams({ lang: language, [SANDBOX_CHECKOUT_SIGNATURE_PARAM]: link.signature })}`;
  const t = (key: keyof typeof TEXT) => escapeHtml(TEXT[key][lang]);
  const other: Language = lang === 'he' ? 'en' : 'he';
  const amount = new Intl.NumberFormat(LANGUAGE_LOCALES[lang], {
    style: 'currency',
    currency: session.currency.toUpperCase(),
  }).format(session.amount_total / 100);
  const state: 'open' | 'paid' | 'expired' =
    session.payment_status === 'paid' ? 'paid' : session.status === 'expired' ? 'expired' : 'open';
  const actions =
    state === 'open'
      ? `<form method="post" action="${escapeHtml(href('/pay', lang))}">` +
        `<button type="submit" data-action="pay">${t('pay')}</button></form>` +
        `<a class="button" data-action="cancel" href="${escapeHtml(session.cancel_url)}">${t('cancel')}</a>`
      : `<a class="button" href="${escapeHtml(state === 'paid' ? session.success_url : session.cancel_url)}">${t('back')}</a>`;
  return `<!doctype html>
<html lang="${lang}" dir="${lang === 'he' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t('title')}</title>
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
<p><a href="${escapeHtml(href('', other))}" lang="${other}">${t('otherLanguage')}</a></p>
<h1>${t('title')}</h1>
<p class="notice" role="alert">${t('notice')}</p>
<dl>
<dt>${t('product')}</dt><dd>${escapeHtml(productName)}</dd>
<dt>${t('amount')}</dt><dd><bdi dir="ltr">${escapeHtml(amount)}</bdi></dd>
<dt>${t('email')}</dt><dd><bdi dir="ltr">${escapeHtml(session.customer_email ?? '')}</bdi></dd>
<dt>${t('status')}</dt><dd data-status="${state}">${t(state)}</dd>
</dl>
<div class="buttons">${actions}</div>
</body>
</html>`;
}
