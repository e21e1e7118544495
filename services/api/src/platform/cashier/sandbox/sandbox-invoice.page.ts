import {
  SANDBOX_INVOICE_SIGNATURE_PARAM,
  CASHIER_PROVIDER_STATUS_LABELS,
  type CashierProviderStatus,
  isCashierProviderStatus,
  type Language,
  LANGUAGE_LOCALES,
} from '@kupa/proto';
import { escapeHtml } from '../../http/html';
import { renderSandboxPage } from '../../http/sandbox-page';
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

/**
 * The sandbox cashier's invoice page, in the sandboxes' page frame. Each button is a form posting to the matching
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
  const currency = escapeHtml(invoice.pay_currency.toUpperCase());
  const back = status === 'finished' || status === 'partially_paid' ? invoice.success_url : invoice.cancel_url;
  return renderSandboxPage({
    lang,
    title: TEXT.title[lang],
    titleSuffixHtml: `<bdi dir="ltr">${escapeHtml(invoice.invoice_id)}</bdi>`,
    notice: TEXT.notice[lang],
    otherLanguage: { href: href('', other), label: TEXT.otherLanguage[lang] },
    factsHtml:
      `<dt>${t('amount')}</dt><dd><bdi dir="ltr">${escapeHtml(amount)}</bdi></dd>\n` +
      `<dt>${t('payIn')}</dt><dd><bdi dir="ltr">${escapeHtml(invoice.pay_amount)} ${currency}</bdi></dd>\n` +
      `<dt>${t('status')}</dt><dd data-status="${escapeHtml(status ?? 'none')}">${escapeHtml(statusText)}</dd>\n` +
      `<dt>${t('paid')}</dt><dd><bdi dir="ltr">${escapeHtml(payment?.actually_paid ?? '0')} ${currency}</bdi></dd>`,
    actionsHtml:
      `${button('pay')}${button('partial')}${button('fail')}${button('expire')}` +
      `<a class="button" href="${escapeHtml(back)}">${t('back')}</a>`,
  });
}
