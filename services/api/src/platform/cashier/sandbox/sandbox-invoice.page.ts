import {
  SANDBOX_INVOICE_SIGNATURE_PARAM,
  CASHIER_PROVIDER_STATUS_LABELS,
  type CashierProviderStatus,
  isCashierProviderStatus,
  type Language,
  LANGUAGE_LOCALES,
} from '@kupa/proto';
import type { SandboxInvoiceRow } from './sandbox-cashier.service';

const TEXT = {
  title: { he: 'קופת ניסוי: חשבונית', en: 'Sandbox cashier: invoice' },
  notice: {
    he: 'זוהי קופת ניסוי. שום כסף אמיתי לא עובר כאן: הכפתורים מדמים את מה שהמשלם עושה.',
    en: 'This is a sandbox cashier. No real money moves here: the buttons play what a payer would do.',
  },
  amount: { he: 'סכום', en: 'Amount' },
  payIn: { he: 'לתשלום ב', en: 'Pay in' },
  status: { he: 'סטטוס', en: 'Status' },
  paid: { he: 'התקבל', en: 'Received' },
  noPayment: { he: 'טרם שולם', en: 'Not paid yet' },
  pay: { he: 'שלם', en: 'Pay' },
  partial: { he: 'שלם חלק', en: 'Pay part' },
  fail: { he: 'כישלון', en: 'Fail' },
  expire: { he: 'פג תוקף', en: 'Expire' },
  back: { he: 'חזרה ל-Kupa', en: 'Back to Kupa' },
  otherLanguage: { he: 'English', en: 'עברית' },
} as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The sandbox's invoice page: plain server-rendered HTML, no script (our security headers forbid inline scripts,
 * and the page needs none), in Hebrew (right to left) or English. Each button is a form posting to the matching
 * script route, which answers the browser with a redirect back here.
 */
export function renderSandboxInvoicePage(
  invoice: SandboxInvoiceRow,
  payment: { status: string; actually_paid: string } | null,
  lang: Language,
  link: { path: string; signature: string },
): string {
  // Every link and form of the page carries the invoice's key, as the link that opened it did.
  const href = (suffix: string, language: Language) =>
    `${link.path}${suffix}?${new URLSearchParams({ lang: language, [SANDBOX_INVOICE_SIGNATURE_PARAM]: link.signature })}`;
  const t = (key: keyof typeof TEXT) => escapeHtml(TEXT[key][lang]);
  const other: Language = lang === 'he' ? 'en' : 'he';
  const amount = new Intl.NumberFormat(LANGUAGE_LOCALES[lang], { style: 'currency', currency: 'USD' }).format(
    Number(invoice.price_amount_minor) / 100,
  );
  const status: CashierProviderStatus | null =
    payment && isCashierProviderStatus(payment.status) ? payment.status : null;
  const statusText = status ? CASHIER_PROVIDER_STATUS_LABELS[status][lang] : TEXT.noPayment[lang];
  const closed = status !== null && !['waiting', 'confirming', 'partially_paid'].includes(status);
  const button = (action: 'pay' | 'partial' | 'fail' | 'expire') =>
    `<form method="post" action="${escapeHtml(href(`/${action}`, lang))}">` +
    `<button type="submit" data-action="${action}"${closed ? ' disabled' : ''}>${t(action)}</button></form>`;
  const back = status === 'finished' || status === 'partially_paid' ? invoice.success_url : invoice.cancel_url;
  return `<!doctype html>
<html lang="${lang}" dir="${lang === 'he' ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t('title')} ${escapeHtml(invoice.invoice_id)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
.notice{background:#fff4e5;border:1px solid #f0b35e;padding:.75rem;border-radius:.5rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}
.buttons{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}button{font-size:1rem;padding:.5rem 1rem;min-height:44px}
</style>
</head>
<body>
<p><a href="${escapeHtml(href('', other))}" lang="${other}">${t('otherLanguage')}</a></p>
<h1>${t('title')} <bdi dir="ltr">${escapeHtml(invoice.invoice_id)}</bdi></h1>
<p class="notice">${t('notice')}</p>
<dl>
<dt>${t('amount')}</dt><dd><bdi dir="ltr">${escapeHtml(amount)}</bdi></dd>
<dt>${t('payIn')}</dt><dd><bdi dir="ltr">${escapeHtml(invoice.pay_amount)} ${escapeHtml(invoice.pay_currency.toUpperCase())}</bdi></dd>
<dt>${t('status')}</dt><dd data-status="${escapeHtml(status ?? 'none')}">${escapeHtml(statusText)}</dd>
<dt>${t('paid')}</dt><dd><bdi dir="ltr">${escapeHtml(payment?.actually_paid ?? '0')} ${escapeHtml(invoice.pay_currency.toUpperCase())}</bdi></dd>
</dl>
<div class="buttons">${button('pay')}${button('partial')}${button('fail')}${button('expire')}</div>
<p><a href="${escapeHtml(back)}">${t('back')}</a></p>
</body>
</html>`;
}
