import { type Language, LANGUAGE_LOCALES, SANDBOX_CHECKOUT_SIGNATURE_PARAM } from '@kupa/proto';
import { escapeHtml } from '../../http/html';
import { renderSandboxPage } from '../../http/sandbox-page';
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

/**
 * The sandbox card's checkout page (docs/adr/0080-sandbox-card-checkout.md), in the sandboxes' page frame. It says
 * loudly that it is a test page and has no card field at all: Pay is a form posting to the pay route, which
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
  return renderSandboxPage({
    lang,
    title: TEXT.title[lang],
    notice: TEXT.notice[lang],
    otherLanguage: { href: href('', other), label: TEXT.otherLanguage[lang] },
    factsHtml:
      `<dt>${t('product')}</dt><dd>${escapeHtml(productName)}</dd>\n` +
      `<dt>${t('amount')}</dt><dd><bdi dir="ltr">${escapeHtml(amount)}</bdi></dd>\n` +
      `<dt>${t('email')}</dt><dd><bdi dir="ltr">${escapeHtml(session.customer_email ?? '')}</bdi></dd>\n` +
      `<dt>${t('status')}</dt><dd data-status="${state}">${t(state)}</dd>`,
    actionsHtml: actions,
  });
}
